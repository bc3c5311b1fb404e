/// Reads client secrets from where the configuration points (an environment variable or
/// a file). Values are used for one request and never stored or printed.
public protocol SecretSource: Sendable {
    func environmentValue(_ name: String) -> String?
    func fileContents(_ path: String) throws -> String
    /// A private key file (Apple's `.p8`): refused unless only its owner can read it.
    func privateKey(_ path: String) throws -> String
}
