/// Where a dynamically registered client's secrets are kept: its registration access token
/// (RFC 7592 §3) and the client secret the server issued (RFC 7591 §3.2.1). Secrets, never in
/// config.json, never printed. The executable keeps them in the keystore, sealed with the
/// tokens when the keystore is sealed (`KeystoreRegistrationSecrets`).
public protocol RegistrationSecrets: Sendable {
    /// Keeps what the registration of `providerID` issued, in place of what was kept before:
    /// `token` bound to `clientURI` (the one place it may be sent: RFC 7592 §2's
    /// `registration_client_uri`, as checked at registration), and the client's secret.
    func store(_ token: String?, clientSecret: RegisteredClientSecret?, for providerID: String, clientURI: URL?) async throws
    /// The registration client URI kept with the token of `providerID`; nil when none was.
    func clientURI(for providerID: String) async throws -> URL?
    /// The token kept for `providerID`, if any.
    func token(for providerID: String) async throws -> String?
    /// The client secret kept for `providerID`, with what it was issued for, if any.
    func clientSecret(for providerID: String) async throws -> RegisteredClientSecret?
    /// Forgets what is kept for `providerID`.
    func remove(for providerID: String) async throws
}

extension RegistrationSecrets {
    /// Keeps a registration access token alone (a public client's registration).
    public func store(_ token: String, for providerID: String, clientURI: URL?) async throws {
        try await store(token, clientSecret: nil, for: providerID, clientURI: clientURI)
    }
}

/// A client secret an authorization server issued at registration (RFC 7591 §3.2.1), with the
/// issuer and client id it was issued for: it is sent for that client at that issuer only,
/// whatever config.json says later (docs/security.md).
public struct RegisteredClientSecret: Sendable, Equatable {
    public var secret: String
    public var issuer: String
    public var clientID: String

    public init(secret: String, issuer: String, clientID: String) {
        self.secret = secret
        self.issuer = issuer
        self.clientID = clientID
    }

    /// Whether it was issued to the client `clientID`, at `issuer` (a provider's configuration).
    public func belongs(issuer: String?, clientID: String?) -> Bool { issuer == self.issuer && clientID == self.clientID }
}
