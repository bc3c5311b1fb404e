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

    /// The code of a refusal, by whose file it is: `keystore-error` for the keystore and
    /// its lock, `provider-not-configured` for the configuration and secret files (docs/exit-codes.md).
    public enum ErrorCode: Sendable {
        case keystoreError
        case providerNotConfigured

        func error(_ message: Message) -> AuthError {
            switch self {
            case .keystoreError: .keystore(message)
            case .providerNotConfigured: .notConfigured(message)
            }
        }
    }

    /// Reads a private file. Nil when it does not exist.
    ///
    /// - Parameters:
    ///   - what: how the message names the file ("the keystore").
    ///   - code: the error code of a refusal (`keystore-error` for the keystore,
    ///     `provider-not-configured` for configuration and secret files).
    ///   - directory: the rule for the directory that holds it.
    ///   - limit: the most bytes the file may hold (secret, key and certificate files are
    ///     small); nil for no limit (the keystore, whose size is the user's).
    public static func read(
        _ path: String, what: String, code: SafeFile.ErrorCode = .keystoreError, directory rule: DirectoryRule = .strict,
        limit: Int? = nil
    ) throws -> Data? {
        try withOpened(path, what: what, code: code, directory: rule) { fd, info in
            try readAll(fd, size: info.st_size, path: path, what: what, code: code, limit: limit)
        }
    }

    /// What secret, key and certificate files may hold: 64 KiB.
    public static let secretFileLimit = 64 * 1024

    /// Opens a private file with the checks of `read` and gives `body` its descriptor and
    /// what `fstat` said of it; closes it after. Nil when the file does not exist.
    static func withOpened<T>(
        _ path: String, what: String, code: SafeFile.ErrorCode = .keystoreError, directory rule: DirectoryRule = .strict,
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
    static func readAll(_ fd: Int32, size: off_t, path: String, what: String, code: SafeFile.ErrorCode, limit: Int? = nil) throws
        -> Data
    {
        func tooLarge() -> AuthError {
            code.error("\(what) \(path) holds more than \((limit ?? 0) / 1024) KiB, which no such file does. Check the path")
        }
        if let limit, size > off_t(limit) { throw tooLarge() }
        // Straight into a buffer of the file's size (one copy, few calls: the keystore is read
        // on every `authctl token`); a file that grew meanwhile is read to its end all the same.
        var data = Data(count: max(Int(size), 0) + 1)
        var length = 0
        while true {
            if let limit, length > limit { throw tooLarge() }
            if length == data.count { data.count += max(data.count, 65536) }
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.read(fd, base + length, buffer.count - length)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw code.error("\(what) \(path) could not be read (\(String(cString: strerror(errno))))")
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
    static func openRefusal(_ path: String, what: String, code: SafeFile.ErrorCode) -> AuthError {
        if errno == ELOOP {
            return code.error(
                "\(what) \(path) is a symbolic link, which authctl refuses (it could point anywhere). Replace it with the real file, or give the real path instead"
            )
        }
        return code.error("\(what) \(path) cannot be opened (\(String(cString: strerror(errno)))). Check its permissions")
    }

    /// Checks what `fd` is — a regular file of ours that only we may read and write — on the
    /// descriptor itself, so that the file checked is the file used.
    @discardableResult
    static func checkOpened(_ fd: Int32, path: String, what: String, code: SafeFile.ErrorCode) throws -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw code.error("\(what) \(path) cannot be examined (\(String(cString: strerror(errno)))). Check its permissions")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw code.error(
                "\(what) \(path) is not a regular file. Move it away or choose another path (\(input: .keystore) or \(input: .config))")
        }
        if info.st_uid != geteuid() {
            throw code.error("\(what) \(path) belongs to another user. Use your own file (\(input: .keystore) or \(input: .config) PATH)")
        }
        if info.st_mode & 0o077 != 0 {
            throw code.error(
                "\(what) \(path) can be read or written by other users (mode \(String(info.st_mode & 0o777, radix: 8))). Fix it with: chmod 600 '\(path)'"
            )
        }
        return info
    }
}

extension SafeFile {
    /// A small file of text that is no secret (`login --authorization-details @FILE`): a
    /// regular file, read without blocking (a FIFO is refused, never waited on) and at most
    /// `limit` bytes; any owner and mode. Errors are `invalid-argument`, naming `option`.
    public static func readArgumentFile(_ path: String, option: Message.Input, limit: Int) throws -> String {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw AuthError.invalidArgument("\(input: option) @\(path): \(String(cString: strerror(errno))). Check the path")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw AuthError.invalidArgument("\(input: option) @\(path) is not a regular file. Give a file, or the value itself")
        }
        let data: Data
        do {
            data = try readAll(fd, size: info.st_size, path: path, what: "the file", code: .providerNotConfigured, limit: limit)
        } catch let error as AuthError {
            throw AuthError.invalidArgument(error.message)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AuthError.invalidArgument("\(input: option) @\(path) is not UTF-8 text")
        }
        return text
    }
}
