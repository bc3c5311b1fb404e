/// What the generic flows ask of a provider. Every provider quirk lives behind this
/// protocol, in `Providers/`; the flows never test a provider id.
///
/// The requirements after `profile(from:)` have neutral defaults (below) that plain
/// OpenID Connect providers keep; Microsoft replaces them.
public protocol IdentityProvider: Sendable {
    var id: ProviderID { get }
    var config: ProviderConfig { get }
    /// The issuer configured for this provider: discovery is fetched under it, and for a
    /// plain OpenID Connect provider the discovery document and every ID token must name it
    /// exactly. (Microsoft: the authority `<authority-host>/<tenant>/v2.0`; the tokens name
    /// a tenant's issuer, see `expectedIDTokenIssuer`.)
    var issuer: String { get }
    /// Where discovery is fetched.
    var discoveryURL: URL { get }
    /// Scopes always asked (before the user's).
    var defaultScopes: [String] { get }
    /// The redirect URI for a listener on `port` (unless `--redirect-uri` overrides it).
    func defaultRedirectURI(host: String, port: UInt16) throws -> URL
    /// The federated id of the identity in a validated ID token.
    func federatedID(from claims: IDTokenClaims) throws -> String
    /// The profile stated by the ID token.
    func profile(from claims: IDTokenClaims) -> Profile
    /// The `nonce` claim expected for a raw nonce (default: the raw nonce itself).
    func expectedNonce(forRawNonce rawNonce: String) -> String

    /// Checks the `issuer` of the discovery document (Discovery §4.3). Default: it must
    /// equal `issuer` exactly. Any failure is `provider-not-configured`.
    func checkDiscoveryIssuer(_ documentIssuer: String) throws
    /// OpenID Connect Core 3.1.3.7 rule 2: the exact `iss` an ID token must carry, given the
    /// discovery document's issuer and the token's (not yet verified) claims. Default:
    /// `issuer`. Microsoft: the `{tenantid}` template filled with the token's `tid`.
    func expectedIDTokenIssuer(discoveryIssuer: String, claims: IDTokenClaims) -> String
    /// Rules of the provider on an ID token that passed every check of OpenID Connect Core
    /// (signature, issuer, audience, times, nonce). Default: none. Microsoft: the tenant
    /// rules (`tenant-id-mismatch`).
    func checkAccount(_ claims: IDTokenClaims, discoveryIssuer: String) throws
    /// The provider to refresh an identity's tokens with. Default: this one. Microsoft: the
    /// authority of the identity's own tenant, whatever tenant was configured.
    func provider(forSessionOf identity: LinkedIdentity) -> any IdentityProvider
    /// The profile after sign-in, completed from the provider's APIs when the tokens allow
    /// it, through `transport` alone. Never fails a sign-in: problems come back as warnings
    /// (the caller reports them) and the profile stays. Default: as is, no warning.
    /// Microsoft: Graph `/v1.0/me` with `User.Read`.
    func enrichedProfile(_ profile: Profile, tokens: TokenSet, transport: any HTTPTransport) async -> (Profile, [ProfileWarning])
    /// Where the signed-in user's photo is (binary), and the scopes a token needs to read
    /// it; nil when the provider offers none (default).
    var profilePhoto: ProtectedResource? { get }
    /// True when a token granted `granted` may be used where `needed` is asked. Default: every
    /// needed scope is granted. Microsoft: Graph scopes with or without the Graph host prefix.
    func scopes(_ granted: [String], cover needed: [String]) -> Bool
    /// The `scope` of a refresh-token grant: `asked` for a token of other scopes, empty for
    /// the session's own token. Nil sends none (RFC 6749 §6: the original scopes). Default:
    /// `asked`, or nil. Microsoft requires `scope` on every refresh, and `offline_access` in it
    /// to rotate the refresh token.
    func refreshScopes(session: TokenSet, asked: [String]) -> [String]?
    /// What to do about an OAuth error of this provider's token endpoint, when the provider
    /// says more than RFC 6749 (Microsoft: AADSTS codes). Default: nil (the RFC's advice).
    func nextStep(for error: OAuthErrorResponse) -> Message?
    /// The provider's endpoints when they are fixed by its documentation rather than read
    /// by discovery. Default: nil (discovery). Apple: `<issuer>/auth/{authorize,token,keys,revoke}`.
    var documentedMetadata: DiscoveryDocument? { get }
    /// `response_mode` for a request of these scopes. Default: nil (the query string).
    /// Apple: `form_post` whenever `name` or `email` is asked.
    func responseMode(for scopes: [String]) -> String?
    /// How the client authenticates at the token and revocation endpoints, when the
    /// provider makes its own secret. Default: nil (the configured secret, if any). Apple:
    /// a fresh ES256 client-secret JWT from the `.p8` key.
    func clientAuthentication(secrets: any SecretSource, now: Date) async throws -> ClientAuthentication?
    /// The profile of a sign-in, from the validated claims and the other (unsigned) fields
    /// of the authorization response. Default: `profile(from:)`; the fields are ignored.
    /// Apple: the name of the first-time `user` field.
    func profile(from claims: IDTokenClaims, callbackFields: [String: String]) -> Profile

    /// The provider's rules for a workload (client-credentials grant, docs/ci.md),
    /// checked before anything is sent. Default: none. Microsoft: a tenant of its own (the
    /// grant has no meaning under `common`, `organizations` or `consumers`).
    func checkWorkload() throws
    /// The scopes of a workload's grant when none are asked. Default: none (the client's
    /// default scopes at the provider). Microsoft: Graph's `.default` (one resource).
    var defaultWorkloadScopes: [String] { get }
    /// The audience to ask of a CI service's OIDC token for a federated assertion. Default:
    /// nil (`--federated-audience` is needed). Microsoft: `api://AzureADTokenExchange`.
    var defaultFederatedAudience: String? { get }
    /// What to do about an OAuth error of a workload's grant (Microsoft: the AADSTS codes of
    /// app credentials). Default: `nextStep(for:)`.
    func workloadNextStep(for error: OAuthErrorResponse) -> Message?
    /// True when a `private_key_jwt` assertion names its certificate by `x5t#S256`.
    /// Default: false. Microsoft: true (Entra ID finds the registered certificate by it).
    var wantsCertificateThumbprint: Bool { get }
}

/// A resource of a provider's API that needs an access token with some scopes.
public struct ProtectedResource: Sendable, Equatable {
    public var url: URL
    public var scopes: [String]

    public init(url: URL, scopes: [String]) {
        self.url = url
        self.scopes = scopes
    }
}

extension IdentityProvider {
    public var clientID: String? { config.clientID }

    /// `--flow implicit` (docs/sign-in.md, `oidc.*` only): the ID token by `form_post`, no code.
    public var usesImplicitFlow: Bool { config.flow == "implicit" }

    /// The client id a flow needs, or `provider-not-configured` with the command that sets it.
    /// docs/sign-in.md's default: `http://<listener host>:<port>/callback` (an IPv6 host in brackets).
    public func defaultRedirectURI(host: String, port: UInt16) throws -> URL {
        let literal = host.contains(":") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(literal):\(port)/callback") else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(host, limit: 60))' cannot be the host of a redirect URI. Use 127.0.0.1 or [::1]")
        }
        return url
    }

    public func requireClientID() throws -> String {
        guard let clientID = config.clientID else {
            throw AuthError.notConfigured(
                "\(id) has no client id. Set it with: \(command: .providersAdd, "\(id)", .input(.clientID, "ID"))")
        }
        return clientID
    }

    /// The `nonce` an ID token must carry when it was requested with `rawNonce`. Most
    /// providers echo the nonce as sent; a provider that hashes it says so here.
    public func expectedNonce(forRawNonce rawNonce: String) -> String { rawNonce }
    public func checkDiscoveryIssuer(_ documentIssuer: String) throws {
        try DiscoveryDocument.requireIssuer(documentIssuer, equals: issuer, provider: id)
    }

    public func expectedIDTokenIssuer(discoveryIssuer: String, claims: IDTokenClaims) -> String { issuer }
    public func checkAccount(_ claims: IDTokenClaims, discoveryIssuer: String) throws {}
    public func provider(forSessionOf identity: LinkedIdentity) -> any IdentityProvider { self }
    public func enrichedProfile(_ profile: Profile, tokens: TokenSet, transport: any HTTPTransport) async -> (Profile, [ProfileWarning]) {
        (profile, [])
    }
    public var profilePhoto: ProtectedResource? { nil }
    public func scopes(_ granted: [String], cover needed: [String]) -> Bool { Set(needed).isSubset(of: Set(granted)) }
    public func nextStep(for error: OAuthErrorResponse) -> Message? { nil }
    /// The scopes asked (`token --scope`); for the session's own refresh, none — the
    /// original grant (RFC 6749 §6) — unless a narrower token was obtained with this refresh
    /// token: then the session's scopes, by name, so that a provider that narrowed the
    /// rotated refresh token (against §6) refuses rather than narrowing the session unseen.
    public func refreshScopes(session: TokenSet, asked: [String]) -> [String]? {
        if !asked.isEmpty { return asked }
        return session.additionalTokens?.isEmpty == false && !session.scopes.isEmpty ? session.scopes : nil
    }
    public var documentedMetadata: DiscoveryDocument? { nil }
    public func responseMode(for scopes: [String]) -> String? { nil }
    public func clientAuthentication(secrets: any SecretSource, now: Date) throws -> ClientAuthentication? { nil }
    public func profile(from claims: IDTokenClaims, callbackFields: [String: String]) -> Profile { profile(from: claims) }
    public func checkWorkload() throws {}
    public var defaultWorkloadScopes: [String] { [] }
    public var defaultFederatedAudience: String? { nil }
    public func workloadNextStep(for error: OAuthErrorResponse) -> Message? {
        if let step = nextStep(for: error) { return step }
        guard error.error == "invalid_client" || error.error == "unauthorized_client" else { return nil }
        // A workload's client and what authenticates it are given at login, not to providers add.
        return
            "Check the workload's client id and what authenticates it (\(command: .login, "\(id)", .input(.clientCredentials, nil), .input(.clientID, "…"), .input(.clientSecretEnv, "VAR"))) against the app's registration at the provider"
    }
    public var wantsCertificateThumbprint: Bool { false }
}

/// Builds the provider for a configuration.
public enum ProviderRegistry {
    public static func provider(for config: ProviderConfig) throws -> any IdentityProvider {
        let id = try ProviderID(parsing: config.id)
        switch id.kind {
        case .oidc:
            return try GenericOIDCProvider(id: id, config: config)
        case .microsoft:
            return try MicrosoftProvider(id: id, config: config)
        case .apple:
            return try AppleProvider(id: id, config: config)
        }
    }
}
