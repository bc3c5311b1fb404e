/// Where a dynamically registered client's registration access token (RFC 7592 §3) is kept:
/// a secret, never in config.json, never printed. The executable keeps it in the keystore,
/// sealed with the tokens when the keystore is sealed (`KeystoreRegistrationSecrets`).
public protocol RegistrationSecrets: Sendable {
    /// Keeps `token` for the provider `providerID`, bound to `clientURI`: the one place it may
    /// be sent (RFC 7592 §2's `registration_client_uri`, as checked at registration).
    func store(_ token: String, for providerID: String, clientURI: URL?) async throws
    /// The registration client URI kept with the token of `providerID`; nil when none was.
    func clientURI(for providerID: String) async throws -> URL?
    /// The token kept for `providerID`, if any.
    func token(for providerID: String) async throws -> String?
    /// Forgets the token of `providerID`.
    func remove(for providerID: String) async throws
}
