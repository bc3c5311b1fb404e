#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system primitives for files that hold secrets: checked reads (no symlinks, no
/// group/world access, owned by us, in a directory no one else can write to), atomic
/// writes (temp file, fsync, rename, fsync of the directory) and an exclusive lock file.
///
/// Every file is opened relative to a descriptor of its directory, with `O_NOFOLLOW` and
/// `O_NONBLOCK`, and what was opened is checked with `fstat`: nothing can be swapped in
/// between a check and the open (a FIFO, a symlink, another user's file).
public enum SafeFile {
    /// Which directories may hold the file.
    public enum DirectoryRule: Sendable {
        /// As ssh's StrictModes: owned by the user or by root, and writable by neither group
        /// nor others. Anyone who may write to the directory may replace the file, plant a
        /// FIFO or hold its lock; the keystore, the configuration and the metadata cache.
        case strict
        /// Any directory: files the user places where they choose (a client secret or key
        /// file, a saved photo).
        case any
    }

    /// Reads a private file. Nil when it does not exist.
    ///
    /// - Parameters:
    ///   - what: how the message names the file ("the keystore").
    ///   - code: the error code of a refusal (`keystore-error` for the keystore,
    ///     `provider-not-configured` for configuration and secret files).
    ///   - directory: the rule for the directory that holds it.
    public static func read(
        _ path: String, what: String, code: AuthError.Code = .keystoreError, directory rule: DirectoryRule = .strict
    ) throws -> Data? {
        try withOpened(path, what: what, code: code, directory: rule) { fd, info in
            try readAll(fd, size: info.st_size, path: path, what: what, code: code)
        }
    }

    /// Opens a private file with the checks of `read` and gives `body` its descriptor and
    /// what `fstat` said of it; closes it after. Nil when the file does not exist.
    static func withOpened<T>(
        _ path: String, what: String, code: AuthError.Code = .keystoreError, directory rule: DirectoryRule = .strict,
        _ body: (Int32, stat) throws -> T
    ) throws -> T? {
        guard let directory = try Directory.open(holding: path, rule: rule, what: what, code: code) else { return nil }
        defer { directory.close() }
        let fd = openat(directory.fd, directory.name(of: path), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw openRefusal(path, what: what, code: code)
        }
        defer { close(fd) }
        let info = try checkOpened(fd, path: path, what: what, code: code)
        return try body(fd, info)
    }

    /// The rest of the file open at `fd`, from its offset to its end.
    static func readAll(_ fd: Int32, size: off_t, path: String, what: String, code: AuthError.Code) throws -> Data {
        // Straight into a buffer of the file's size (one copy, few calls: the keystore is read
        // on every `authctl token`); a file that grew meanwhile is read to its end all the same.
        var data = Data(count: max(Int(size), 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(data.count, 65536) }
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.read(fd, base + length, buffer.count - length)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw AuthError(code, "\(what) \(path) could not be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            length += count
        }
        data.count = length
        return data
    }

    /// The bytes `range` of the file open at `fd` (`pread`: its offset stays); nil when a read
    /// fails or the file ends before the range does.
    static func read(_ fd: Int32, range: Range<Int>) -> Data? {
        var data = Data(count: range.count)
        var length = 0
        while length < range.count {
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return pread(fd, base + length, buffer.count - length, off_t(range.lowerBound + length))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            length += count
        }
        return data
    }

    /// The refusal of an `open` that failed: a symbolic link (`O_NOFOLLOW` gives `ELOOP`)
    /// or any other reason.
    static func openRefusal(_ path: String, what: String, code: AuthError.Code) -> AuthError {
        if errno == ELOOP {
            return AuthError(
                code,
                "\(what) \(path) is a symbolic link, which authctl refuses (it could point anywhere). Replace it with the real file, or pass the real path (--keystore or --config)"
            )
        }
        return AuthError(code, "\(what) \(path) cannot be opened (\(String(cString: strerror(errno)))). Check its permissions")
    }

    /// Checks what `fd` is — a regular file of ours that only we may read and write — on the
    /// descriptor itself, so that the file checked is the file used.
    @discardableResult
    static func checkOpened(_ fd: Int32, path: String, what: String, code: AuthError.Code) throws -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw AuthError(code, "\(what) \(path) cannot be examined (\(String(cString: strerror(errno)))). Check its permissions")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw AuthError(code, "\(what) \(path) is not a regular file. Move it away or choose another path (--keystore or --config)")
        }
        if info.st_uid != geteuid() {
            throw AuthError(code, "\(what) \(path) belongs to another user. Use your own file (--keystore or --config PATH)")
        }
        if info.st_mode & 0o077 != 0 {
            throw AuthError(
                code,
                "\(what) \(path) can be read or written by other users (mode \(String(info.st_mode & 0o777, radix: 8))). Fix it with: chmod 600 '\(path)'"
            )
        }
        return info
    }

    /// Creates the parent directory (mode 0700) when it is missing.
    public static func ensureDirectory(for path: String, what: String) throws {
        let directory = Path.parent(of: path)
        guard !directory.isEmpty else { return }
        if FileManager.default.fileExists(atPath: directory) {
            guard Path.isDirectory(directory) else {
                throw AuthError.keystore("\(directory) is not a directory; \(what) cannot be created there")
            }
            return
        }
        if let failure = Path.createDirectories(directory, mode: 0o700) {
            throw AuthError.keystore("cannot create the directory \(directory) for \(what): \(failure)")
        }
    }

    /// Writes `data` so that readers see either the old or the new file, never a part:
    /// a temporary file in the same directory (0600), fsync, rename, fsync of the directory.
    public static func writeAtomically(
        _ data: Data, to path: String, what: String, random: any RandomSource, directory rule: DirectoryRule = .strict
    ) throws {
        try ensureDirectory(for: path, what: what)
        guard let directory = try Directory.open(holding: path, rule: rule, what: what, code: .keystoreError) else {
            throw AuthError.keystore("cannot write \(what) \(path): its directory does not exist. Check the path")
        }
        defer { directory.close() }
        let name = directory.name(of: path)
        let temporary = directory.name(
            of: directory.path + "/" + temporaryPrefix(of: Path.lastComponent(of: path))
                + "\(getpid())-\(random.base64URL(bytes: 6))")
        let fd = openat(directory.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AuthError.keystore(
                "cannot write \(what) beside \(path) (\(String(cString: strerror(errno)))). Check that its directory is writable")
        }
        var ok = true
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { ok = false; return }
                offset += written
            }
        }
        if ok { ok = fsync(fd) == 0 }
        close(fd)
        guard ok, renameat(directory.fd, temporary, directory.fd, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(directory.fd, temporary, 0)
            throw AuthError.keystore("could not write \(what) \(path) (\(reason)); it is unchanged. Check free disk space and permissions")
        }
        if directory.fd != AT_FDCWD { fsync(directory.fd) }
    }

    /// `.NAME.tmp-`: how the temporary files of `writeAtomically` begin.
    static func temporaryPrefix(of name: String) -> String { ".\(name).tmp-" }

    /// Removes the temporary files that writers of `path` killed mid-write (`kill -9`, a
    /// power cut) left beside it: they hold whole keystores, refresh tokens included, and
    /// nothing else would ever remove them. Call it only while holding the file's lock (no
    /// writer is then at work). Only names of our pattern, and only regular files of ours.
    public static func removeStaleTemporaries(of path: String, what: String) throws {
        guard let directory = try Directory.open(holding: path, rule: .strict, what: what, code: .keystoreError) else { return }
        defer { directory.close() }
        let prefix = temporaryPrefix(of: directory.name(of: path))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            var info = stat()
            guard fstatat(directory.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                info.st_uid == geteuid()
            else { continue }
            unlinkat(directory.fd, name, 0)
        }
    }

    /// An open directory that holds a checked file: files are opened relative to it, so the
    /// directory checked is the one they are in, whatever is renamed meanwhile.
    struct Directory {
        let fd: Int32
        let path: String

        /// The directory of `path`, opened and checked by `rule`; nil when it does not exist.
        static func open(holding file: String, rule: DirectoryRule, what: String, code: AuthError.Code) throws -> Directory? {
            let parent = Path.parent(of: file)
            let path = parent.isEmpty ? "." : parent
            let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                if errno == ENOENT { return nil }
                // A directory that may be searched but not listed (0711) is fine for `.any`:
                // its files are then opened by their whole path.
                if errno == EACCES, rule == .any { return Directory(fd: AT_FDCWD, path: path) }
                throw AuthError(
                    code,
                    "the directory \(path) of \(what) cannot be opened (\(String(cString: strerror(errno)))). Check the path and its permissions"
                )
            }
            let directory = Directory(fd: fd, path: path)
            if rule == .strict {
                do { try directory.check(what: what, code: code) } catch {
                    directory.close()
                    throw error
                }
            }
            return directory
        }

        /// ssh's StrictModes for the directory: owned by us or root, writable by no one else.
        func check(what: String, code: AuthError.Code) throws {
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw AuthError(code, "the directory \(path) of \(what) cannot be examined (\(String(cString: strerror(errno))))")
            }
            if info.st_uid != geteuid() && info.st_uid != 0 {
                throw AuthError(
                    code,
                    "the directory \(path) holding \(what) belongs to another user (uid \(info.st_uid)), who could replace \(what). Keep it in a directory of your own (--keystore or --config PATH)"
                )
            }
            if info.st_mode & 0o022 != 0 {
                throw AuthError(
                    code,
                    "the directory \(path) holding \(what) can be written by \(info.st_mode & 0o002 != 0 ? "every user" : "its group") (mode \(String(info.st_mode & 0o7777, radix: 8))), so another user could replace \(what). Fix it with: chmod 700 '\(path)'"
                )
            }
        }

        /// How to name `file` to the `*at` calls: its last component, or its whole path when
        /// the directory could not be opened.
        func name(of file: String) -> String { fd == AT_FDCWD ? file : Path.lastComponent(of: file) }

        func close() { if fd != AT_FDCWD { _ = Glibc.close(fd) } }
    }
}

/// An exclusive advisory lock on `<path>.lock` (flock), released when the value is closed.
public final class FileLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, waiting up to `timeout`; `keystore-error` when it cannot. The lock
    /// file is held to the rules of the file it locks (a regular file of ours that no one
    /// else may open — anyone who can open it can hold the lock — in a directory checked by
    /// `rule`). Cancelling the task (Ctrl-C) ends the wait at once with `CancellationError`.
    public static func acquire(
        for path: String, timeout: TimeInterval, what: String, code: AuthError.Code = .keystoreError,
        directory rule: SafeFile.DirectoryRule = .strict
    ) async throws -> FileLock {
        try SafeFile.ensureDirectory(for: path, what: what)
        let lockPath = path + ".lock"
        let lockWhat = "the lock file of \(what)"
        guard let directory = try SafeFile.Directory.open(holding: lockPath, rule: rule, what: what, code: code) else {
            throw AuthError(code, "cannot open the lock file \(lockPath): its directory does not exist. Check the path")
        }
        defer { directory.close() }
        let fd = openat(directory.fd, directory.name(of: lockPath), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SafeFile.openRefusal(lockPath, what: lockWhat, code: code) }
        do { try SafeFile.checkOpened(fd, path: lockPath, what: lockWhat, code: code) } catch {
            close(fd)
            throw error
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(min(max(timeout, 0), 86_400) * 1000))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(fd)
                throw AuthError(
                    code,
                    "\(what) \(path) stayed locked by another authctl for \(Int(timeout)) s. Wait for it to finish, or end it, and try again"
                )
            }
            do { try await Task.sleep(nanoseconds: 20_000_000) } catch {
                close(fd)
                throw error
            }
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
