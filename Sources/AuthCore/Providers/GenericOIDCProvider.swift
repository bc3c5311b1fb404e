/// Any OpenID Connect provider with discovery (`oidc.<name>`, docs/configuration.md).
public struct GenericOIDCProvider: IdentityProvider {
    public let id: ProviderID
    public let config: ProviderConfig
    public let issuer: String
    /// `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4).
    public let discoveryURL: URL
    /// The server's metadata when the caller read and checked it already (a resource's
    /// sign-in, docs/resources.md); nil: fetched from `discoveryURL`.
    let knownMetadata: DiscoveryDocument?

    /// A provider whose metadata the caller read and checked already.
    public init(id: ProviderID, config: ProviderConfig, metadata: DiscoveryDocument) throws {
        try self.init(id: id, config: config, knownMetadata: metadata)
    }

    public init(id: ProviderID, config: ProviderConfig) throws {
        try self.init(id: id, config: config, knownMetadata: nil)
    }

    init(id: ProviderID, config: ProviderConfig, knownMetadata: DiscoveryDocument?) throws {
        guard let issuer = config.issuer else {
            throw AuthError.notConfigured("\(id) has no issuer. Set it with: \(command: .providersAdd, "\(id)", .input(.issuer, "URL"))")
        }
        // A server without metadata (MCP 2025-03-26's default endpoints): nothing to fetch.
        self.knownMetadata = knownMetadata ?? (config.defaultEndpoints == true ? DiscoveryDocument.defaultEndpoints(at: issuer) : nil)
        self.id = id
        self.config = config
        self.issuer = issuer
        if let metadataURL = config.metadataURL {
            // A server found from a resource (docs/resources.md): its RFC 8414 metadata.
            guard let url = URL(string: metadataURL) else {
                throw AuthError.notConfigured("\(id)'s metadataUrl is not a URL. Remove the provider and sign in to the resource again")
            }
            try EndpointPolicy.check(url, what: "the authorization server's metadata URL")
            discoveryURL = url
        } else {
            discoveryURL = try ProviderURL.make(issuer, "/.well-known/openid-configuration", provider: id, option: .issuer)
        }
    }

    public var defaultScopes: [String] { ["openid", "profile", "email"] }

    /// `providers add --preset` fills the issuer of an `oidc.*` provider (google, gitlab, …).
    public static var takesPresets: Bool { true }
    /// Its issuer is the configuration's: there is no default.
    public static var requiresIssuer: Bool { true }

    public var documentedMetadata: DiscoveryDocument? { knownMetadata }

    public func federatedID(from claims: IDTokenClaims) throws -> String { claims.subject }

    public func profile(from claims: IDTokenClaims) -> Profile {
        Profile(email: claims.email, emailVerified: claims.emailVerified, displayName: claims.name, photoURL: claims.picture)
    }
}
