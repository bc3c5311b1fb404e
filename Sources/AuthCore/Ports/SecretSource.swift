/// Reads client secrets from where the configuration points (an environment variable or
/// a file). Values are used for one request and never stored or printed.
public protocol SecretSource: Sendable {
    func environmentValue(_ name: String) -> String?
    func fileContents(_ path: String) throws -> String
    /// A private key file (Apple's `.p8`): refused unless only its owner can read it.
    func privateKey(_ path: String) throws -> String
    /// The keystore's own files (the keystore, its lock, its key file): no secret file read
    /// here may be one of them (`KeystoreSecretReference.checkFile`).
    var keystoreFiles: [String] { get }
}

extension SecretSource {
    public var keystoreFiles: [String] { [] }

    /// The value of `name`, refused when it is one of authctl's own (`KeystoreSecretReference`).
    public func secretVariable(_ name: String, option: Message.Input) throws -> String? {
        try KeystoreSecretReference.checkVariable(name, option: option)
        return environmentValue(name)
    }

    /// Refuses a secret file that is one of the keystore's own.
    func checkNotKeystoreFile(_ path: String, option: Message.Input) throws {
        try KeystoreSecretReference.checkFile(path, keystoreFiles: keystoreFiles, option: option)
    }
}
