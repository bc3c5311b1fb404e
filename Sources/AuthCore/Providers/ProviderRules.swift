/// The rules of a provider after the ID token: the profile, the refresh and its scopes, the
/// workload grant, the advice on its errors; and those that need no configuration (how it
/// is set up, what a broker must know of it). `IdentityProvider` gathers them all.

/// The profile a sign-in keeps.
public protocol ProfileRules: ProviderIdentity {
    /// The profile stated by the ID token.
    func profile(from claims: IDTokenClaims) -> Profile
    /// The profile of a sign-in, from the validated claims and the other (unsigned) fields
    /// of the authorization response. Default: `profile(from:)`; the fields are ignored.
    /// Apple: the name of the first-time `user` field.
    func profile(from claims: IDTokenClaims, callbackFields: [String: String]) -> Profile
    /// The profile after sign-in, completed from the provider's APIs when the tokens allow
    /// it, through `transport` alone. Never fails a sign-in: problems come back as warnings
    /// (the caller reports them) and the profile stays. Default: as is, no warning.
    /// Microsoft: Graph `/v1.0/me` with `User.Read`.
    func enrichedProfile(_ profile: Profile, tokens: TokenSet, transport: any HTTPTransport) async -> (Profile, [ProfileWarning])
    /// Where the signed-in user's photo is (binary), and the scopes a token needs to read
    /// it; nil when the provider offers none (default).
    var profilePhoto: ProtectedResource? { get }
}

/// A refresh of an identity's tokens, and the scopes it asks.
public protocol RefreshRules: ProviderIdentity {
    /// The provider to refresh an identity's tokens with. Default: this one. Microsoft: the
    /// authority of the identity's own tenant, whatever tenant was configured.
    func provider(forSessionOf identity: LinkedIdentity) -> any IdentityProvider
    /// True when a token granted `granted` may be used where `needed` is asked. Default: every
    /// needed scope is granted. Microsoft: Graph scopes with or without the Graph host prefix.
    func scopes(_ granted: [String], cover needed: [String]) -> Bool
    /// The `scope` of a refresh-token grant: `asked` for a token of other scopes, empty for
    /// the session's own token. Nil sends none (RFC 6749 §6: the original scopes). Default:
    /// `asked`, or nil. Microsoft requires `scope` on every refresh, and `offline_access` in it
    /// to rotate the refresh token.
    func refreshScopes(session: TokenSet, asked: [String]) -> [String]?
}

/// A workload's client-credentials grant (docs/ci.md).
public protocol WorkloadRules: ProviderIdentity {
    /// The provider's rules for a workload, checked before anything is sent. Default: none.
    /// Microsoft: a tenant of its own (the grant has no meaning under `common`,
    /// `organizations` or `consumers`).
    func checkWorkload() throws
    /// The scopes of a workload's grant when none are asked. Default: none (the client's
    /// default scopes at the provider). Microsoft: Graph's `.default` (one resource).
    var defaultWorkloadScopes: [String] { get }
    /// The audience to ask of a CI service's OIDC token for a federated assertion. Default:
    /// nil (`--federated-audience` is needed). Microsoft: `api://AzureADTokenExchange`.
    var defaultFederatedAudience: String? { get }
    /// True when a `private_key_jwt` assertion names its certificate by `x5t#S256`.
    /// Default: false. Microsoft: true (Entra ID finds the registered certificate by it).
    var wantsCertificateThumbprint: Bool { get }
    /// True when a workload may sign in to this provider never added to config.json, with
    /// the provider's defaults (its tenant and client id come from the command line, as `az
    /// login --service-principal`). Default: false (an `oidc.*` provider needs its issuer).
    /// Microsoft: true (`login.microsoftonline.com`, Graph).
    static var signsInWorkloadsUnconfigured: Bool { get }
}

/// What to do about an OAuth error, when the provider says more than RFC 6749.
public protocol ErrorAdvice: ProviderIdentity {
    /// What to do about an OAuth error of this provider's token endpoint (Microsoft: AADSTS
    /// codes). Default: nil (the RFC's advice).
    func nextStep(for error: OAuthErrorResponse) -> Message?
    /// What to do about an OAuth error of a workload's grant (Microsoft: the AADSTS codes of
    /// app credentials). Default: `nextStep(for:)`, else the advice on a workload's client.
    func workloadNextStep(for error: OAuthErrorResponse) -> Message?
}

/// How a provider is made and checked from `providers add`'s options: rules of its kind,
/// before any configuration is read.
public protocol ProviderSetUpRules {
    init(id: ProviderID, config: ProviderConfig) throws
    /// True when `providers add --preset` may fill its issuer (docs/configuration.md).
    /// Default: false (the provider has its own settings). `oidc.*`: true.
    static var takesPresets: Bool { get }
    /// True when the provider cannot be added without `--issuer`. Default: false (its
    /// issuer is known). `oidc.*`: true.
    static var requiresIssuer: Bool { get }
    /// Checks a private key file given to `providers add`, so that a key that cannot be used
    /// fails then, not at the first sign-in. Default: nothing. Apple: it must make a
    /// client secret (docs/apple.md).
    static func checkPrivateKeyFile(_ path: String, keyID: String?, secrets: any SecretSource, now: Date) async throws
}

/// What an account backend that brokers the sign-in (Firebase, docs/firebase.md) must do
/// for this provider: rules of its kind, no configuration of the provider is read.
public protocol BrokeredSignInRules {
    /// The custom parameters of the brokered authorization request, given the sign-in's
    /// `--tenant`. Default: the parameters as they are. Microsoft: the tenant (checked) as
    /// the `tenant` parameter.
    static func brokeredParameters(_ parameters: [(String, String)], tenant: String?) throws -> [(String, String)]
    /// Refuses an ID token obtained elsewhere (`--id-token`) when the broker takes this
    /// provider's sign-ins only through its own code exchange. Default: taken. Microsoft: refused.
    static func checkBrokeredIDToken() throws
    /// True when the provider's tokens are revoked before the account is deleted. Default:
    /// false. Apple: true (Apple requires it, docs/apple.md).
    static var revokesTokensWhenAccountDeleted: Bool { get }
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

extension ProfileRules {
    public func profile(from claims: IDTokenClaims, callbackFields: [String: String]) -> Profile { profile(from: claims) }
    public func enrichedProfile(_ profile: Profile, tokens: TokenSet, transport: any HTTPTransport) async -> (Profile, [ProfileWarning]) {
        (profile, [])
    }
    public var profilePhoto: ProtectedResource? { nil }
}

extension RefreshRules where Self: IdentityProvider {
    public func provider(forSessionOf identity: LinkedIdentity) -> any IdentityProvider { self }
}

extension RefreshRules {
    public func scopes(_ granted: [String], cover needed: [String]) -> Bool { Set(needed).isSubset(of: Set(granted)) }
    /// The scopes asked (`token --scope`); for the session's own refresh, none — the
    /// original grant (RFC 6749 §6) — unless a narrower token was obtained with this refresh
    /// token: then the session's scopes, by name, so that a provider that narrowed the
    /// rotated refresh token (against §6) refuses rather than narrowing the session unseen.
    public func refreshScopes(session: TokenSet, asked: [String]) -> [String]? {
        if !asked.isEmpty { return asked }
        return session.additionalTokens?.isEmpty == false && !session.scopes.isEmpty ? session.scopes : nil
    }
}

extension WorkloadRules {
    public func checkWorkload() throws {}
    public var defaultWorkloadScopes: [String] { [] }
    public var defaultFederatedAudience: String? { nil }
    public var wantsCertificateThumbprint: Bool { false }
    public static var signsInWorkloadsUnconfigured: Bool { false }
}

extension ErrorAdvice {
    public func nextStep(for error: OAuthErrorResponse) -> Message? { nil }
    public func workloadNextStep(for error: OAuthErrorResponse) -> Message? {
        if let step = nextStep(for: error) { return step }
        guard error.error == "invalid_client" || error.error == "unauthorized_client" else { return nil }
        // A workload's client and what authenticates it are given at login, not to providers add.
        return
            "Check the workload's client id and what authenticates it (\(command: .login, "\(id)", .input(.clientCredentials, nil), .input(.clientID, "…"), .input(.clientSecretEnv, "VAR"))) against the app's registration at the provider"
    }

    /// The next step after a refused JWT-bearer grant of a workload (RFC 7523 §2.1, §3.1).
    public func jwtBearerNextStep(for error: OAuthErrorResponse, issuer: String) -> Message? {
        if let step = nextStep(for: error) { return step }
        switch error.error {
        case "invalid_grant":
            return
                "Check that \(id) trusts the issuer of the workload's token for the JWT-bearer grant, that the token's subject is one it accepts and its audience names \(Sanitize.text(issuer, limit: 200)), and that the token is a fresh one (a server may take each token once)"
        case "invalid_client", "unauthorized_client", "unsupported_grant_type":
            return
                "Check the workload's client id, that \(id) allows it the JWT-bearer grant, and how it authenticates (\(command: .login, "\(id)", .input(.jwtBearer, nil), .input(.clientID, "…"), .input(.federatedTokenFile, "PATH")), with \(input: .clientSecretEnv) or \(input: .certificateFile) for a confidential client)"
        default:
            return nil
        }
    }
}

extension ProviderSetUpRules {
    public static var takesPresets: Bool { false }
    public static var requiresIssuer: Bool { false }
    public static func checkPrivateKeyFile(_ path: String, keyID: String?, secrets: any SecretSource, now: Date) async throws {}
}

extension BrokeredSignInRules {
    public static func brokeredParameters(_ parameters: [(String, String)], tenant: String?) throws -> [(String, String)] { parameters }
    public static func checkBrokeredIDToken() throws {}
    public static var revokesTokensWhenAccountDeleted: Bool { false }
}
