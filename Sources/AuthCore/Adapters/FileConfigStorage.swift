#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// config.json on disk: read as the user's own file (`SafeFile`), changed under its lock
/// and written atomically (mode 0600).
public struct FileConfigStorage: ConfigStorage {
    public let path: String
    let random: any RandomSource

    public init(path: String, random: any RandomSource) {
        self.path = path
        self.random = random
    }

    public func read() throws -> Data? {
        try SafeFile.read(path, what: "the configuration file", code: .providerNotConfigured)
    }

    /// A peek, with none of `read`'s checks (a symbolic link is followed): the bytes decide
    /// nothing but "no rules here", and the command then does what it did before rules
    /// existed; a file that may hold rules is then read with every check (and a link refused).
    /// A missing file holds none; one that cannot be opened or read may (the read explains).
    public func mayHoldRules() -> Bool {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno != ENOENT }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size < 1 << 20 else { return true }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Int(info.st_size) + 1)
        defer { buffer.deallocate() }
        var length = 0
        while length < buffer.count, let base = buffer.baseAddress {
            let count = Glibc.read(fd, base + length, buffer.count - length)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return true }
            if count == 0 { break }
            length += count
        }
        return ConfigRulesPeek.mayHoldRules(UnsafeBufferPointer(rebasing: buffer[..<length]))
    }

    public func update(_ change: (Data?) throws -> Data) async throws {
        let lock = try await FileLock.acquire(
            for: path, timeout: 30, what: "the configuration file", code: .providerNotConfigured, clock: SystemClock())
        defer { lock.release() }
        let data = try change(try read())
        try SafeFile.writeAtomically(data, to: path, what: "the configuration file", random: random)
    }
}
