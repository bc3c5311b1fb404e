import Foundation

/// Any OpenID Connect provider with discovery (`oidc.<name>`, SPEC §4).
public struct GenericOIDCProvider: IdentityProvider {
    public let id: ProviderID
    public let config: ProviderConfig
    public let issuer: String

    public init(id: ProviderID, config: ProviderConfig) throws {
        guard let issuer = config.issuer else {
            throw AuthError.notConfigured("\(id) has no issuer. Set it with: authctl providers add \(id) --issuer URL")
        }
        self.id = id
        self.config = config
        self.issuer = issuer
    }

    public var discoveryURL: URL {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return URL(string: base + "/.well-known/openid-configuration")!
    }

    public var defaultScopes: [String] { ["openid", "profile", "email"] }

    public func federatedID(from claims: IDTokenClaims) throws -> String { claims.subject }

    public func profile(from claims: IDTokenClaims) -> Profile {
        Profile(email: claims.email, emailVerified: claims.emailVerified, displayName: claims.name, photoURL: claims.picture)
    }
}
