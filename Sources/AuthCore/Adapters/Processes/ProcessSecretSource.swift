extension SafeFile {
    /// A small private file of text (a secret, a key, a certificate): no symbolic link, the
    /// user's own, readable by nobody else, at most `secretFileLimit`; what to `check` when it
    /// is missing or not text.
    static func readSecretText(_ path: String, what: String, check: Message) throws -> String {
        guard let data = try read(path, what: what, code: .providerNotConfigured, directory: .any, limit: secretFileLimit),
            let text = String(data: data, encoding: .utf8)
        else { throw AuthError.notConfigured("\(what) \(path) does not exist or is not text. Check \(check)") }
        return text
    }
}

/// The process environment and the file system.
public struct ProcessSecretSource: SecretSource {
    let environment: [String: String]
    /// The keystore's own files, found when a secret file is read (rarely; the keystore's
    /// key file is named inside it).
    let ownFiles: @Sendable () -> [String]

    public init(environment: [String: String], keystoreFiles: @escaping @Sendable () -> [String] = { [] }) {
        self.environment = environment
        ownFiles = keystoreFiles
    }

    public func environmentValue(_ name: String) -> String? { environment[name] }

    public var keystoreFiles: [String] { ownFiles() }

    public func fileContents(_ path: String) throws -> String {
        try checkNotKeystoreFile(path, option: .clientSecretFile)
        return try SafeFile.readSecretText(path, what: "the client secret file", check: "\(input: .clientSecretFile)")
            .trimming(.whitespacesAndNewlines)
    }

    public func privateKey(_ path: String) throws -> String {
        try checkNotKeystoreFile(path, option: .privateKeyFile)
        return try SafeFile.readSecretText(
            path, what: "the private key file", check: "\(input: .privateKeyFile) (the AuthKey_KEYID.p8 from Apple)")
    }
}

/// Every secret source reads a private key file the same way, refusing an unsafe one.
extension SecretSource {
    public func privateKey(_ path: String) throws -> String {
        try checkNotKeystoreFile(path, option: .privateKeyFile)
        return try SafeFile.readSecretText(
            path, what: "the private key file", check: "\(input: .privateKeyFile) (the AuthKey_KEYID.p8 from Apple)")
    }
}
