/// Any OpenID Connect provider with discovery (`oidc.<name>`, docs/configuration.md).
public struct GenericOIDCProvider: IdentityProvider {
    public let id: ProviderID
    public let config: ProviderConfig
    public let issuer: String
    /// `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4).
    public let discoveryURL: URL

    public init(id: ProviderID, config: ProviderConfig) throws {
        guard let issuer = config.issuer else {
            throw AuthError.notConfigured("\(id) has no issuer. Set it with: \(command: .providersAdd, "\(id)", .input(.issuer, "URL"))")
        }
        self.id = id
        self.config = config
        self.issuer = issuer
        discoveryURL = try ProviderURL.make(issuer, "/.well-known/openid-configuration", provider: id, option: .issuer)
    }

    public var defaultScopes: [String] { ["openid", "profile", "email"] }

    public func federatedID(from claims: IDTokenClaims) throws -> String { claims.subject }

    public func profile(from claims: IDTokenClaims) -> Profile {
        Profile(email: claims.email, emailVerified: claims.emailVerified, displayName: claims.name, photoURL: claims.picture)
    }
}
