import AuthCore
import Foundation

/// config.json's bytes in memory: a core test configures providers without writing a file.
/// `path` only names it in messages. It counts its reads, so that a test can hold a
/// command to reading its configuration once.
public final class InMemoryConfigStorage: ConfigStorage, @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var bytes: Data?
    private var readCount = 0

    public init(path: String = "/config/authctl/config.json", bytes: Data? = nil) {
        self.path = path
        self.bytes = bytes
    }

    /// How many times the configuration was read (`update`'s read included).
    public var reads: Int { lock.withLock { readCount } }

    /// The bytes as they are now.
    public var contents: Data? { lock.withLock { bytes } }

    public func read() throws -> Data? {
        lock.withLock {
            readCount += 1
            return bytes
        }
    }

    public func update(_ change: (Data?) throws -> Data) async throws {
        try lock.withLock {
            readCount += 1
            bytes = try change(bytes)
        }
    }
}

/// Another storage (the file, as the executable has it) whose reads are counted.
public final class CountingConfigStorage: ConfigStorage, @unchecked Sendable {
    private let base: any ConfigStorage
    private let lock = NSLock()
    private var readCount = 0

    public init(_ base: any ConfigStorage) { self.base = base }

    public var path: String { base.path }

    /// How many times the configuration was read (`update`'s read not included).
    public var reads: Int { lock.withLock { readCount } }

    public func read() throws -> Data? {
        lock.withLock { readCount += 1 }
        return try base.read()
    }

    public func update(_ change: (Data?) throws -> Data) async throws { try await base.update(change) }
}
