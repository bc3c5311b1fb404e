/// What the generic flows ask of a provider, as one name: the provider's rules split by
/// concern, each a small protocol of its own (at most 8 requirements, held by
/// scripts/protocol-size.py). Every provider quirk lives behind one of them, in `Providers/`;
/// the flows never test a provider id. A use site asks for the narrowest it needs (the
/// discovery fetch `ProviderDiscovery & ErrorAdvice`, the ID-token check `IDTokenRules`).
///
/// Most requirements have neutral defaults (in each protocol's extension) that plain
/// OpenID Connect providers keep; Microsoft and Apple replace some.
public protocol IdentityProvider:
    ProviderDiscovery, AuthorizationRules, IDTokenRules, ProfileRules, RefreshRules, WorkloadRules, ErrorAdvice, ProviderSetUpRules,
    BrokeredSignInRules
{}

/// Who the provider is: what every other rule of a provider may use.
public protocol ProviderIdentity: Sendable {
    var id: ProviderID { get }
    var config: ProviderConfig { get }
    /// The issuer configured for this provider: discovery is fetched under it, and for a
    /// plain OpenID Connect provider the discovery document and every ID token must name it
    /// exactly. (Microsoft: the authority `<authority-host>/<tenant>/v2.0`; the tokens name
    /// a tenant's issuer, see `IDTokenRules.expectedIDTokenIssuer`.)
    var issuer: String { get }
}

/// Where the provider's metadata comes from and what it must say (OpenID Connect Discovery 1.0).
public protocol ProviderDiscovery: ProviderIdentity {
    /// Where discovery is fetched.
    var discoveryURL: URL { get }
    /// The provider's endpoints when they are fixed by its documentation rather than read
    /// by discovery. Default: nil (discovery). Apple: `<issuer>/auth/{authorize,token,keys,revoke}`.
    var documentedMetadata: DiscoveryDocument? { get }
    /// Checks the `issuer` of the discovery document (Discovery §4.3). Default: it must
    /// equal `issuer` exactly. Any failure is `provider-not-configured`.
    func checkDiscoveryIssuer(_ documentIssuer: String) throws
}

/// What the authorization request and the token endpoint's client authentication say.
public protocol AuthorizationRules: ProviderIdentity {
    /// Scopes always asked (before the user's).
    var defaultScopes: [String] { get }
    /// The redirect URI for a listener on `port` (unless `--redirect-uri` overrides it).
    func defaultRedirectURI(host: String, port: UInt16) throws -> URL
    /// `response_mode` for a request of these scopes. Default: nil (the query string).
    /// Apple: `form_post` whenever `name` or `email` is asked.
    func responseMode(for scopes: [String]) -> String?
    /// How the client authenticates at the token and revocation endpoints, when the
    /// provider makes its own secret. Default: nil (the configured secret, if any). Apple:
    /// a fresh ES256 client-secret JWT from the `.p8` key.
    func clientAuthentication(secrets: any SecretSource, now: Date) async throws -> ClientAuthentication?
}

/// The provider's rules on an ID token, beyond OpenID Connect Core's.
public protocol IDTokenRules: ProviderIdentity {
    /// The `nonce` claim expected for a raw nonce (default: the raw nonce itself).
    func expectedNonce(forRawNonce rawNonce: String) -> String
    /// OpenID Connect Core 3.1.3.7 rule 2: the exact `iss` an ID token must carry, given the
    /// discovery document's issuer and the token's (not yet verified) claims. Default:
    /// `issuer`. Microsoft: the `{tenantid}` template filled with the token's `tid`.
    func expectedIDTokenIssuer(discoveryIssuer: String, claims: IDTokenClaims) -> String
    /// Rules of the provider on an ID token that passed every check of OpenID Connect Core
    /// (signature, issuer, audience, times, nonce). Default: none. Microsoft: the tenant
    /// rules (`tenant-id-mismatch`).
    func checkAccount(_ claims: IDTokenClaims, discoveryIssuer: String) throws
    /// The federated id of the identity in a validated ID token.
    func federatedID(from claims: IDTokenClaims) throws -> String
}

extension ProviderIdentity {
    public var clientID: String? { config.clientID }

    /// `--flow implicit` (docs/sign-in.md, `oidc.*` only): the ID token by `form_post`, no code.
    public var usesImplicitFlow: Bool { config.flow == "implicit" }

    /// The client id a flow needs, or `provider-not-configured` with the command that sets it.
    public func requireClientID() throws -> String {
        guard let clientID = config.clientID else {
            throw AuthError.notConfigured(
                "\(id) has no client id. Set it with: \(command: .providersAdd, "\(id)", .input(.clientID, "ID"))")
        }
        return clientID
    }
}

extension ProviderDiscovery {
    public var documentedMetadata: DiscoveryDocument? { nil }
    public func checkDiscoveryIssuer(_ documentIssuer: String) throws {
        try DiscoveryDocument.requireIssuer(documentIssuer, equals: issuer, provider: id)
    }
}

extension AuthorizationRules {
    /// docs/sign-in.md's default: `http://<listener host>:<port>/callback` (an IPv6 host in brackets).
    public func defaultRedirectURI(host: String, port: UInt16) throws -> URL {
        let literal = host.contains(":") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(literal):\(port)/callback") else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(host, limit: 60))' cannot be the host of a redirect URI. Use 127.0.0.1 or [::1]")
        }
        return url
    }
    public func responseMode(for scopes: [String]) -> String? { nil }
    public func clientAuthentication(secrets: any SecretSource, now: Date) throws -> ClientAuthentication? { nil }
}

extension IDTokenRules {
    /// The `nonce` an ID token must carry when it was requested with `rawNonce`. Most
    /// providers echo the nonce as sent; a provider that hashes it says so here.
    public func expectedNonce(forRawNonce rawNonce: String) -> String { rawNonce }
    public func expectedIDTokenIssuer(discoveryIssuer: String, claims: IDTokenClaims) -> String { issuer }
    public func checkAccount(_ claims: IDTokenClaims, discoveryIssuer: String) throws {}
}

/// Builds the provider for a configuration.
public enum ProviderRegistry {
    public static func provider(for config: ProviderConfig) throws -> any IdentityProvider {
        let id = try ProviderID(parsing: config.id)
        return try kind(of: id).init(id: id, config: config)
    }

    /// The type of the provider `id` names: its rules that need no configuration.
    public static func kind(of id: ProviderID) -> any IdentityProvider.Type {
        switch id.kind {
        case .oidc: GenericOIDCProvider.self
        case .microsoft: MicrosoftProvider.self
        case .apple: AppleProvider.self
        }
    }
}
