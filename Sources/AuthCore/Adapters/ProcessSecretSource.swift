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

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func environmentValue(_ name: String) -> String? { environment[name] }

    public func fileContents(_ path: String) throws -> String {
        try SafeFile.readSecretText(path, what: "the client secret file", check: "\(input: .clientSecretFile)")
            .trimming(.whitespacesAndNewlines)
    }

    public func privateKey(_ path: String) throws -> String {
        try SafeFile.readSecretText(
            path, what: "the private key file", check: "\(input: .privateKeyFile) (the AuthKey_KEYID.p8 from Apple)")
    }
}

/// Every secret source reads a private key file the same way, refusing an unsafe one.
extension SecretSource {
    public func privateKey(_ path: String) throws -> String {
        try SafeFile.readSecretText(
            path, what: "the private key file", check: "\(input: .privateKeyFile) (the AuthKey_KEYID.p8 from Apple)")
    }
}
