#if canImport(Glibc)
    import Glibc
#endif

/// A private directory (0700) for files only this user may read, removed by `remove()`.
///
/// Its name carries the pid of the authctl that made it (`authctl-exec-PID-RANDOM`), so that
/// a later one can tell the directories of processes that no longer exist (ended by
/// `kill -9`, which nothing can catch) and remove them with the token they hold.
public struct PrivateDirectory: Sendable {
    static let prefix = "authctl-exec-"

    public let path: String

    /// Under `$XDG_RUNTIME_DIR` when given (a per-user tmpfs), else the temporary directory.
    /// Directories left there by dead authctl processes are removed first.
    public static func create(under parent: String, random: any RandomSource) throws -> PrivateDirectory {
        let parent = parent.hasSuffix("/") ? parent : parent + "/"
        removeAbandoned(under: parent)
        let path = parent + prefix + "\(getpid())-" + random.base64URL(bytes: 9)
        guard mkdir(path, 0o700) == 0 else {
            throw AuthError.internalError("cannot create a private directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return PrivateDirectory(path: path)
    }

    /// Removes `authctl-exec-PID-…` directories whose process no longer exists: only
    /// directories (not links) owned by this user. A pid that runs (even another user's
    /// process, or a recycled pid) keeps its directory; names without a pid are left alone.
    static func removeAbandoned(under parent: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) {
            let fields = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 1)
            guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            var info = stat()
            guard lstat(parent + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid() else { continue }
            try? FileManager.default.removeItem(atPath: parent + name)
        }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
