/// The grant of a workload (docs/ci.md): client credentials (RFC 6749 §4.4), where the
/// client authenticates by a secret, by `private_key_jwt` or by a federated assertion, or the
/// JWT-bearer grant (RFC 7523 §2.1), where the workload's token is the grant and the client
/// authenticates as registered or not at all — each read afresh from where the workload's
/// record points — and gets an access token. No
/// refresh token is kept: the grant runs again when the token is needed.
public struct WorkloadGrant: Sendable {
    let tokens: TokenClient
    let clock: any Clock

    public init(tokens: TokenClient, clock: any Clock) {
        self.tokens = tokens
        self.clock = clock
    }

    /// What one grant yields: the issuer of the provider (the identity's) and the token.
    public struct Result: Sendable {
        public var issuer: String
        public var tokens: TokenSet
    }

    /// The provider a workload signs in to: the configured one, with the workload's client
    /// id and tenant, checked by the provider's workload rules.
    static func provider(_ config: ProviderConfig, for client: WorkloadClient) throws -> any IdentityProvider {
        var config = config
        config.clientID = client.clientID
        if let tenant = client.tenant { config.tenant = tenant }
        try config.validate()
        let provider = try ProviderRegistry.provider(for: config)
        try provider.checkWorkload()
        return provider
    }

    /// One grant for `scopes` (empty: the workload's own scopes, else the provider's default).
    /// - Parameter issuer: the issuer the workload signed in at (a renewal): its credential is
    ///   sent to no other, whatever the configuration says now.
    /// - Parameter proof: a renewal's: the key the workload's tokens are bound to (`.required`),
    ///   or `.none` for a bearer workload. Nil at a sign-in, which decides by the provider's
    ///   configuration and metadata, with `newKey` (DPoP, RFC 9449: docs/security.md).
    /// - Parameter binding: a renewal's: where the workload's credential and tokens may go, as
    ///   recorded at its sign-in. Nil at a sign-in: the provider's endpoints now, which the
    ///   tokens then keep.
    /// - Parameter resource: the protected resource the token is for (RFC 8707: `login URL
    ///   --client-credentials`, docs/resources.md), which then goes with the tokens' binding.
    func run(
        _ client: WorkloadClient, provider: any IdentityProvider, scopes: [String] = [], issuer: String? = nil,
        proof: TokenClient.Proof? = nil, newKey: DPoPKey? = nil, binding: SecretBinding? = nil, resource: URL? = nil
    ) async throws -> Result {
        let asked = !scopes.isEmpty ? scopes : !client.scopes.isEmpty ? client.scopes : provider.defaultWorkloadScopes
        let discovery = try await tokens.discovery(for: provider)
        if let issuer, discovery.issuer != issuer {
            throw AuthError.notConfigured(
                "the workload signed in at \(Sanitize.text(issuer, limit: 200)), and the configuration of \(provider.id) now leads to \(Sanitize.text(discovery.issuer, limit: 200)); its credential is sent only where it signed in. Sign the workload in again: \(command: .login, "\(provider.id)", .input(client.grantInput, nil))"
            )
        }
        let chosen: TokenClient.Proof
        if let proof {
            chosen = proof
        } else if let newKey {
            chosen = try RequestProtection.decide(provider: provider, discovery: discovery, key: newKey, browser: false, workload: client)
                .proof
        } else {
            chosen = .none
        }
        // A resource's token may go to the resource too (as a person's resource grant).
        let bound = binding ?? TokenClient.binding(for: provider, discovery: discovery).adding([resource].compactMap { $0 })
        let issued = try await tokens.requestTokens(
            try await tokens.workloadGrant(client, scopes: asked, discovery: discovery), provider: provider, client: .workload(client),
            discovery: discovery, proof: chosen,
            resource: resource, binding: bound)
        let response = issued.response
        let now = clock.now()
        // A refresh token, had the provider sent one (RFC 6749 §4.4.3 says it should not), is
        // not kept: the workload's credentials are what renews its token.
        let tokens = TokenSet(
            accessToken: response.accessToken, tokenType: response.tokenType,
            expiresAt: response.expiresIn.map { now.addingTimeInterval($0) },
            refreshToken: nil, idToken: nil, scopes: response.scopes ?? asked)
        var kept = tokens
        kept.proofKey = issued.proofKey
        kept.egress = bound
        return Result(issuer: discovery.issuer, tokens: kept)
    }
}
