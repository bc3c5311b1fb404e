/// Registration access tokens (RFC 7592) in one private JSON file (`registrations.json`,
/// mode 0600 in the keystore's 0700 directory), written atomically: `{"oidc.x": "token"}`.
/// The file is read and written whole, under no lock of its own: registrations happen at
/// `login URL` and `providers remove`, one person at a time.
public struct FileRegistrationSecrets: RegistrationSecrets {
    let path: String
    let random: any RandomSource

    public init(path: String, random: any RandomSource) {
        self.path = path
        self.random = random
    }

    private func all() throws -> [String: String] {
        guard let data = try SafeFile.read(path, what: "the registrations file", limit: 1 << 20) else { return [:] }
        guard let object = JSONValue.object(from: data) else {
            throw AuthError.keystore("the registrations file \(path) is not a JSON object. Move it aside: \(moveAside: path)")
        }
        return object.compactMapValues(\.stringValue)
    }

    private func write(_ tokens: [String: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try SafeFile.writeAtomically(try encoder.encode(tokens), to: path, what: "the registrations file", random: random)
    }

    public func store(_ token: String, for providerID: String) throws {
        var tokens = try all()
        tokens[providerID] = token
        try write(tokens)
    }

    public func token(for providerID: String) throws -> String? { try all()[providerID] }

    public func remove(for providerID: String) throws {
        var tokens = try all()
        guard tokens.removeValue(forKey: providerID) != nil else { return }
        try write(tokens)
    }
}
