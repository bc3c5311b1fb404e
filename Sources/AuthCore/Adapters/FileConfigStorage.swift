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

    public func update(_ change: (Data?) throws -> Data) async throws {
        let lock = try await FileLock.acquire(for: path, timeout: 30, what: "the configuration file", code: .providerNotConfigured)
        defer { lock.release() }
        let data = try change(try read())
        try SafeFile.writeAtomically(data, to: path, what: "the configuration file", random: random)
    }
}
