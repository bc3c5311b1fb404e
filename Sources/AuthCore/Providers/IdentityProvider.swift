import Foundation

/// What the generic flows ask of a provider. Every provider quirk lives behind this
/// protocol, in `Providers/`; the flows never test a provider id.
public protocol IdentityProvider: Sendable {
    var id: ProviderID { get }
    var config: ProviderConfig { get }
    /// The issuer the discovery document and the ID tokens must name.
    var issuer: String { get }
    /// Where discovery is fetched.
    var discoveryURL: URL { get }
    /// Scopes always asked (before the user's).
    var defaultScopes: [String] { get }
    /// The redirect URI for a listener on `port` (unless `--redirect-uri` overrides it).
    func defaultRedirectURI(host: String, port: UInt16) -> URL
    /// The federated id of the identity in a validated ID token.
    func federatedID(from claims: IDTokenClaims) throws -> String
    /// The profile stated by the ID token.
    func profile(from claims: IDTokenClaims) -> Profile
    /// The `nonce` claim expected for a raw nonce (default: the raw nonce itself).
    func expectedNonce(forRawNonce rawNonce: String) -> String
}

extension IdentityProvider {
    public var clientID: String? { config.clientID }

    /// The `nonce` an ID token must carry when it was requested with `rawNonce`. Most
    /// providers echo the nonce as sent; a provider that hashes it says so here.
    public func expectedNonce(forRawNonce rawNonce: String) -> String { rawNonce }
}

/// Builds the provider for a configuration.
public enum ProviderRegistry {
    public static func provider(for config: ProviderConfig) throws -> any IdentityProvider {
        let id = try ProviderID(parsing: config.id)
        switch id.kind {
        case .oidc:
            return try GenericOIDCProvider(id: id, config: config)
        case .microsoft, .apple:
            throw AuthError.notConfigured(
                "\(id) is not supported by this version of authctl yet; use an oidc.NAME provider. See docs/configuration.md")
        }
    }
}
