/// Where a dynamically registered client's registration access token (RFC 7592 §3) is kept:
/// a secret, never in config.json, never printed. The executable keeps it in the keystore,
/// sealed with the tokens when the keystore is sealed (`KeystoreRegistrationSecrets`).
public protocol RegistrationSecrets: Sendable {
    /// Keeps `token` for the provider `providerID`.
    func store(_ token: String, for providerID: String) async throws
    /// The token kept for `providerID`, if any.
    func token(for providerID: String) async throws -> String?
    /// Forgets the token of `providerID`.
    func remove(for providerID: String) async throws
}
