#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// kubectl's lock on a kubeconfig (client-go's `lockFile`): `FILE.lock` made with `O_EXCL` and
/// removed when done. Another writer holding it: tries again every 0.1 s of `clock`
/// (Sources/AuthCore/Ports/Clock.swift) for 5 s, then gives up.
public struct KubectlLock: Sendable {
    /// The lock file, `FILE.lock`.
    public let path: String

    private init(path: String) { self.path = path }

    /// Takes the lock on the kubeconfig at `kubeconfig`; `keystore-error` when another program
    /// keeps it. Cancelling the task ends the wait with `CancellationError`.
    public static func acquire(for kubeconfig: String, clock: any Clock) async throws -> KubectlLock {
        let lock = KubectlLock(path: kubeconfig + ".lock")
        try SafeFile.ensureDirectory(for: kubeconfig, what: "the kubeconfig")
        for attempt in 0..<50 {
            let fd = open(lock.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                return lock
            }
            guard errno == EEXIST else {
                throw AuthError.keystore(
                    "cannot lock the kubeconfig \(kubeconfig) (\(String(cString: strerror(errno)))). Check its directory")
            }
            if attempt < 49 { try await clock.sleep(for: 0.1) }
        }
        throw AuthError.keystore(
            "the kubeconfig \(kubeconfig) is locked by another program (\(lock.path) exists). If no kubectl is running, remove that file and try again"
        )
    }

    public func release() { unlink(path) }
}
