/// Registration access tokens (RFC 7592) and registered client secrets in the keystore, as `registrations` (docs/keystore.md):
/// sealed with the tokens when the keystore is sealed, under its lock like every write.
///
/// Earlier builds kept them in `registrations.json` beside the keystore (mode 0600, never
/// sealed). That file is read at the first use (or by `keystore seal`: `migrate`), its tokens
/// moved into the keystore, and removed.
public struct KeystoreRegistrationSecrets: RegistrationSecrets {
    let keystore: any Keystore
    /// Where earlier builds kept the tokens.
    let legacyPath: String

    public init(keystore: any Keystore, legacyPath: String) {
        self.keystore = keystore
        self.legacyPath = legacyPath
    }

    public func store(_ token: String?, clientSecret: RegisteredClientSecret?, for providerID: String, clientURI: URL?) async throws {
        try await migrate()
        try await keystore.update {
            $0.registrationTokens[providerID] = token
            $0.registrationClientURIs[providerID] = token == nil ? nil : clientURI?.absoluteString
            $0.registeredClientSecrets[providerID] = clientSecret
        }
    }

    public func clientSecret(for providerID: String) async throws -> RegisteredClientSecret? {
        try keystore.read().registeredClientSecrets[providerID]
    }

    public func clientURI(for providerID: String) async throws -> URL? {
        try keystore.read().registrationClientURIs[providerID].flatMap(URL.init(string:))
    }

    public func token(for providerID: String) async throws -> String? {
        try await migrate()
        return try keystore.read().registrationTokens[providerID]
    }

    public func remove(for providerID: String) async throws {
        try await migrate()
        try await keystore.update {
            $0.registrationTokens[providerID] = nil
            $0.registrationClientURIs[providerID] = nil
            $0.registeredClientSecrets[providerID] = nil
        }
    }

    /// Moves the tokens of the old `registrations.json` into the keystore (a token the keystore
    /// holds for the same provider stays), then removes the file. Nothing when there is none.
    public func migrate() async throws {
        guard let data = try SafeFile.read(legacyPath, what: "the registrations file", limit: 1 << 20) else { return }
        guard let object = JSONValue.object(from: data) else {
            throw AuthError.keystore(
                "the registrations file \(legacyPath) is not a JSON object. Move it aside: \(moveAside: legacyPath)")
        }
        let tokens = object.compactMapValues(\.stringValue)
        if !tokens.isEmpty {
            try await keystore.update { state in
                for (providerID, token) in tokens where state.registrationTokens[providerID] == nil {
                    state.registrationTokens[providerID] = token
                }
            }
        }
        do {
            try FileManager.default.removeItem(atPath: legacyPath)
        } catch {
            throw AuthError.keystore(
                "the registration access tokens of \(legacyPath) were moved into the keystore, but the file could not be removed. Remove it yourself: it holds them in plaintext"
            )
        }
    }
}
