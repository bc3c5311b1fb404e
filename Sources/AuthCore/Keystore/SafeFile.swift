import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system primitives for files that hold secrets: checked reads (no symlinks, no
/// group/world access, owned by us), atomic writes (temp file, fsync, rename, fsync of the
/// directory) and an exclusive lock file.
public enum SafeFile {
    /// Reads a private file. Nil when it does not exist.
    ///
    /// - Parameters:
    ///   - what: how the message names the file ("the keystore").
    ///   - code: the error code of a refusal (`keystore-error` for the keystore,
    ///     `provider-not-configured` for configuration and secret files).
    public static func read(_ path: String, what: String, code: AuthError.Code = .keystoreError) throws -> Data? {
        func refuse(_ message: String) -> AuthError { AuthError(code, message) }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw refuse("\(what) \(path) cannot be read (\(String(cString: strerror(errno)))). Check the path and its permissions")
        }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            throw refuse(
                "\(what) \(path) is a symbolic link, which authctl refuses (it could point anywhere). Replace it with the real file, or pass the real path (--keystore or --config)"
            )
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw refuse("\(what) \(path) is not a regular file. Move it away or choose another path (--keystore or --config)")
        }
        if info.st_uid != geteuid() {
            throw refuse("\(what) \(path) belongs to another user. Use your own file (--keystore or --config PATH)")
        }
        if info.st_mode & 0o077 != 0 {
            throw refuse(
                "\(what) \(path) can be read or written by other users (mode \(String(info.st_mode & 0o777, radix: 8))). Fix it with: chmod 600 '\(path)'"
            )
        }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw refuse("\(what) \(path) cannot be opened (\(String(cString: strerror(errno)))). Check its permissions")
        }
        defer { close(fd) }
        // Straight into a buffer of the file's size (one copy, few calls: the keystore is read
        // on every `authctl token`); a file that grew meanwhile is read to its end all the same.
        var data = Data(count: max(Int(info.st_size), 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(data.count, 65536) }
            let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + length, $0.count - length) }
            if count < 0 { throw refuse("\(what) \(path) could not be read (\(String(cString: strerror(errno))))") }
            if count == 0 { break }
            length += count
        }
        data.count = length
        return data
    }

    /// Creates the parent directory (mode 0700) when it is missing.
    public static func ensureDirectory(for path: String, what: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw AuthError.keystore("\(directory) is not a directory; \(what) cannot be created there")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AuthError.keystore("cannot create the directory \(directory) for \(what): \(error.localizedDescription)")
        }
    }

    /// Writes `data` so that readers see either the old or the new file, never a part:
    /// a temporary file in the same directory (0600), fsync, rename, fsync of the directory.
    public static func writeAtomically(_ data: Data, to path: String, what: String, random: any RandomSource) throws {
        try ensureDirectory(for: path, what: what)
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-\(getpid())-\(random.base64URL(bytes: 6))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AuthError.keystore(
                "cannot write \(what) beside \(path) (\(String(cString: strerror(errno)))). Check that its directory is writable")
        }
        var ok = true
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { ok = false; return }
                offset += written
            }
        }
        if ok { ok = fsync(fd) == 0 }
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw AuthError.keystore(
                "could not write \(what) \(path) (\(String(cString: strerror(errno)))); it is unchanged. Check free disk space and permissions"
            )
        }
        let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}

/// An exclusive advisory lock on `<path>.lock` (flock), released when the value is closed.
public final class FileLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, waiting up to `timeout`; `keystore-error` when it cannot.
    public static func acquire(for path: String, timeout: TimeInterval, what: String) async throws -> FileLock {
        try SafeFile.ensureDirectory(for: path, what: what)
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AuthError.keystore(
                "cannot open the lock file \(lockPath) (\(String(cString: strerror(errno)))). Check the directory's permissions")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(fd)
                throw AuthError.keystore(
                    "\(what) \(path) stayed locked by another authctl for \(Int(timeout)) s. Wait for it to finish, or end it, and try again"
                )
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return FileLock(fd: fd)
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
