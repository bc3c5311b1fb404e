/// Where config.json's bytes are kept: the file (`FileConfigStorage`) in the executable, memory
/// in tests. `ConfigStore` decodes and validates them; the storage only keeps them.
public protocol ConfigStorage: Sendable {
    /// Where the configuration lives, as messages name it (the file's path).
    var path: String { get }
    /// The bytes as they are; nil when there is no configuration yet.
    func read() throws -> Data?
    /// Under the storage's lock: the bytes as they are (nil: none yet) given to `change`,
    /// and what it returns kept in their place.
    func update(_ change: (Data?) throws -> Data) async throws
    /// Whether the configuration may hold `rules` (docs/identities.md): false only when it
    /// surely holds none (no configuration, or none of the bytes `"rules"`), which the token
    /// hot path then takes without reading the configuration as a whole. True by default.
    func mayHoldRules() -> Bool
}

extension ConfigStorage {
    public func mayHoldRules() -> Bool { true }
}
