#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock on `<path>.lock` (flock), released when the value is closed.
public final class FileLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, waiting up to `timeout`; `keystore-error` when it cannot. The lock
    /// file is held to the rules of the file it locks (a regular file of ours that no one
    /// else may open — anyone who can open it can hold the lock — in a directory checked by
    /// `rule`). Cancelling the task (Ctrl-C) ends the wait at once with `CancellationError`.
    /// After a second of waiting, `waiting` is called once with the holder's pid when it can
    /// be known (nil when not). The waits and the timeout are `clock`'s (Sources/AuthCore/Ports/Clock.swift),
    /// so that a test drives them.
    public static func acquire(
        for path: String, timeout: TimeInterval, what: String, code: SafeFile.ErrorCode = .keystoreError,
        directory rule: SafeFile.DirectoryRule = .strict, clock: any Clock,
        waiting: (@Sendable (_ holder: Int32?) -> Void)? = nil
    ) async throws -> FileLock {
        try SafeFile.ensureDirectory(for: path, what: what)
        let lockPath = path + ".lock"
        let lockWhat = "the lock file of \(what)"
        guard let directory = try SafeFile.Directory.open(holding: lockPath, rule: rule, what: what, code: code) else {
            throw code.error("cannot open the lock file \(lockPath): its directory does not exist. Check the path")
        }
        defer { directory.close() }
        let fd = openat(directory.fd, directory.name(of: lockPath), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SafeFile.openRefusal(lockPath, what: lockWhat, code: code) }
        do { try SafeFile.checkOpened(fd, path: lockPath, what: lockWhat, code: code) } catch {
            close(fd)
            throw error
        }
        let started = clock.now()
        let deadline = started.addingTimeInterval(timeout.isNaN ? 0 : min(max(timeout, 0), 86_400))
        var told = waiting == nil
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if !told, clock.now().timeIntervalSince(started) >= 1 {
                told = true
                waiting?(holder(of: fd))
            }
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now() < deadline else {
                close(fd)
                throw code.error(
                    "\(what) \(path) stayed locked by another authctl for \(Int(timeout)) s. Wait for it to finish, or end it, and try again"
                )
            }
            do { try await clock.sleep(for: 0.02) } catch {
                close(fd)
                throw error
            }
        }
        // Tells a waiting authctl who holds the lock: a POSIX lock on the file's first byte,
        // whose owner's pid F_GETLK reports (flock's owner cannot be asked). Only a hint:
        // the flock is the lock, and this one goes with it when the file is closed.
        var record = flock()
        record.l_type = Int16(F_WRLCK)
        record.l_whence = Int16(SEEK_SET)
        record.l_start = 0
        record.l_len = 1
        _ = fcntl(fd, F_SETLK, &record)
        return FileLock(fd: fd)
    }

    /// The pid of the process that holds a POSIX lock on the lock file, when one does.
    private static func holder(of fd: Int32) -> Int32? {
        var record = flock()
        record.l_type = Int16(F_WRLCK)
        record.l_whence = Int16(SEEK_SET)
        record.l_start = 0
        record.l_len = 1
        guard fcntl(fd, F_GETLK, &record) == 0, record.l_type != Int16(F_UNLCK), record.l_pid > 0 else { return nil }
        return record.l_pid
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
