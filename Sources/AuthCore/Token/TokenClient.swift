/// The one client of a provider's token endpoint (RFC 6749 §3.2) and of the endpoints that
/// take the same client authentication: device authorization (RFC 8628 §3.1), revocation
/// (RFC 7009) and introspection (RFC 7662). Every grant authctl makes goes through
/// `requestTokens` — the code exchange, a device poll, a refresh, a workload's client
/// credentials, a token exchange (RFC 8693) — and every request through `send`, so that a new client authentication
/// (`ClientAuthenticator`) or a proof of possession touches one file.
///
/// A request for a DPoP-bound grant (RFC 9449) carries a fresh proof made by the identity's
/// key (`Proof`); a server that asks for a nonce (`use_dpop_nonce`) is answered once more
/// with a new proof and a new client authentication, and its nonce is remembered for this
/// command's later requests to it.
///
/// Every request names the binding of the secrets it carries (`SecretBinding`): the stored
/// one for a refresh, a revocation or a renewal, a fresh one (`binding(for:discovery:)`) for
/// a sign-in that obtains them now; the transport's egress check holds each request to it.
///
/// It authenticates the client, sends, parses the answer (`TokenResponse`, whose refusal is
/// an `AuthError` carrying the provider's `oauthError` as a value) and validates the ID
/// token when one comes back and the caller says what it expects of it. It keeps no state:
/// the provider's metadata comes from `ProviderMetadata` and its cache.
public struct TokenClient: Sendable {
    /// Whose client the request authenticates.
    public enum Client: Sendable, Equatable {
        /// The provider's configured client (a person's sign-in, refresh and revocation).
        case configured
        /// A workload's own client, authenticated as at its grant.
        case workload(WorkloadClient)
    }

    /// Whether a request proves possession of a DPoP key (RFC 9449), and what it accepts back.
    public enum Proof: Sendable, Equatable {
        /// A bearer request.
        case none
        /// Proofs made by the key; a bearer token back is taken (the provider does not bind
        /// tokens: `--dpop auto`).
        case offered(DPoPKey)
        /// Proofs made by the key; the tokens must come back bound to it (`--dpop always`, and
        /// every refresh of a DPoP-bound identity: never a fall back to bearer).
        case required(DPoPKey)

        public var key: DPoPKey? {
            switch self {
            case .none: nil
            case .offered(let key), .required(let key): key
            }
        }
    }

    /// What a grant yields.
    public struct Issued: Sendable, Equatable {
        public var response: TokenResponse
        /// The ID token's claims, validated (OpenID Connect Core 3.1.3.7), when the response
        /// carried one and the caller asked for its validation.
        public var idTokenClaims: IDTokenClaims?
        /// The key the request proved: the access token is bound to it when `token_type` is
        /// `DPoP`, and a public client's refresh token may be either way (RFC 9449 §5). Nil when
        /// no proof was sent.
        public var proofKey: DPoPKey?
        /// Where the issued tokens may be sent: the binding the grant was made under (set by
        /// `requestTokens` and `poll`), which the stored tokens keep.
        public var binding: SecretBinding?

        public init(response: TokenResponse, idTokenClaims: IDTokenClaims? = nil, proofKey: DPoPKey? = nil, binding: SecretBinding? = nil) {
            self.response = response
            self.idTokenClaims = idTokenClaims
            self.proofKey = proofKey
            self.binding = binding
        }
    }

    /// A pushed authorization request's answer (RFC 9126 §2.2).
    public struct Pushed: Sendable, Equatable {
        public var requestURI: String
        public var expiresIn: TimeInterval

        public init(requestURI: String, expiresIn: TimeInterval) {
            self.requestURI = requestURI
            self.expiresIn = expiresIn
        }
    }

    /// A device poll's answer.
    public enum DevicePoll: Sendable, Equatable {
        case issued(Issued)
        /// The provider's OAuth error: pending, slow down, denied, expired…
        case refused(OAuthErrorResponse)
    }

    /// What an ID token that comes back must be: for the client of the request, issued by the
    /// provider, signed by one of its keys, and carrying `nonce` when one was sent.
    public struct IDTokenExpectation: Sendable, Equatable {
        public var nonce: String?
        public init(nonce: String?) { self.nonce = nonce }
    }

    /// The answer of a revocation or introspection endpoint: its status and, when it is
    /// one, the OAuth error it carries.
    public struct EndpointAnswer: Sendable, Equatable {
        public var status: Int
        public var json: [String: JSONValue]?
        public var error: OAuthErrorResponse? { json.flatMap(OAuthErrorResponse.init) }
    }

    let transport: any HTTPTransport
    let clock: any Clock
    let random: any RandomSource
    let metadata: ProviderMetadata
    let authenticator: ClientAuthenticator
    /// The nonces servers gave this command (RFC 9449 §8), per server and client.
    let nonces = DPoPNonces()

    public init(
        transport: any HTTPTransport, clock: any Clock, random: any RandomSource, metadataCache: any MetadataCache,
        secrets: any SecretSource, registrations: (any RegistrationSecrets)? = nil
    ) {
        self.transport = transport
        self.clock = clock
        self.random = random
        metadata = ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache)
        authenticator = ClientAuthenticator(
            clock: clock, random: random, secrets: secrets, transport: transport, registrations: registrations)
    }

    /// The provider's discovery document (cached).
    func discovery(for provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        try await metadata.discovery(for: provider)
    }

    /// The discovery document for a sign-in, its provider reached first when it came from the cache.
    func signInDiscovery(for provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        try await metadata.signInDiscovery(for: provider)
    }

    /// The binding of secrets obtained now, from `provider` as `discovery` (fetched and checked
    /// against the configured issuer) describes it: its endpoints and the provider's profile
    /// photo (Microsoft Graph).
    static func binding(for provider: any ProfileRules, discovery: DiscoveryDocument, issuer: String? = nil) -> SecretBinding {
        SecretBinding(issuer: issuer ?? discovery.issuer, discovery: discovery, also: [provider.profilePhoto?.url])
    }

    /// Makes the provider's client authentication once, without sending it, so that one that
    /// cannot be made (Apple: the key file missing or unsafe) fails before a browser opens.
    func checkClientAuthentication(_ provider: any IdentityProvider) async throws {
        _ = try await authenticator.configured(provider, discovery: nil)
    }

    /// The grant a workload runs (docs/ci.md): client credentials (RFC 6749 §4.4), or the
    /// JWT-bearer grant (RFC 7523 §2.1) with its token, read now, as the `assertion`.
    func workloadGrant(_ client: WorkloadClient, scopes: [String], discovery: DiscoveryDocument) async throws -> TokenRequest.Grant {
        guard let source = client.jwtBearerAssertion else { return .clientCredentials(scopes: scopes) }
        return .jwtBearer(assertion: try await authenticator.grantAssertion(source, of: client, discovery: discovery), scopes: scopes)
    }

    /// One grant at the token endpoint (RFC 6749 §4.1.3, §4.4, §6).
    /// - Parameters:
    ///   - idToken: what an ID token in the answer must be; nil: not validated here (a
    ///     workload's grant, which keeps none).
    ///   - proof: the DPoP key the request proves, and whether the tokens must be bound to it.
    ///   - additionalParameters: added to the grant's form.
    ///   - resource: the protected resource the token is for (RFC 8707 §2.2), sent as `resource`.
    ///   - moreResources: the other resources it is for (one sign-in for several), each another `resource`.
    ///   - binding: where the secrets of the request may go (a refresh: the stored binding).
    func requestTokens(
        _ grant: TokenRequest.Grant, provider: any IdentityProvider, client: Client = .configured, discovery: DiscoveryDocument,
        idToken: IDTokenExpectation? = nil, proof: Proof = .none, additionalParameters: [(String, String)] = [], resource: URL? = nil,
        moreResources: [URL] = [], binding: SecretBinding
    ) async throws -> Issued {
        let (response, clientID) = try await send(
            grant, provider: provider, client: client, discovery: discovery, proof: proof, additionalParameters: additionalParameters,
            resource: resource, moreResources: moreResources, binding: binding)
        if case .refreshToken = grant, response.status == 400, response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) {
            // RFC 6749 §5.2 puts `invalid_grant` in a JSON body; some servers (Glewlwyd) answer a
            // used, revoked or expired refresh token with a bare 400. For a refresh nothing
            // else is meant by it: the session has ended.
            throw AuthError.invalidCredential(
                "\(provider.id) refused the refresh token (HTTP 400 with no explanation)", oauthError: .invalidGrant)
        }
        var issued = try await issued(
            response, provider: provider, client: client, clientID: clientID, discovery: discovery, idToken: idToken, proof: proof,
            exchange: grant.isTokenExchange)
        issued.binding = binding
        return issued
    }

    /// One poll of the device flow (RFC 8628 §3.4): the tokens, or the provider's OAuth
    /// error as an answer (`authorization_pending`, `slow_down`, …) for `DeviceTokenPolling`
    /// to judge. The ID token is validated as a sign-in's, with no nonce.
    func poll(
        deviceCode: String, provider: any IdentityProvider, discovery: DiscoveryDocument, proof: Proof = .none, binding: SecretBinding
    ) async throws -> DevicePoll {
        try await poll(.deviceCode(deviceCode), provider: provider, discovery: discovery, proof: proof, binding: binding)
    }

    /// One poll of a grant that waits for a person elsewhere: the device flow's, or CIBA's
    /// (`.backchannel`, CIBA Core 1.0 §10.1, whose poll answers as the device flow's do, §11).
    func poll(
        _ grant: TokenRequest.Grant, provider: any IdentityProvider, discovery: DiscoveryDocument, proof: Proof = .none,
        binding: SecretBinding
    ) async throws -> DevicePoll {
        let (response, clientID) = try await send(
            grant, provider: provider, client: .configured, discovery: discovery, proof: proof, binding: binding)
        // An OAuth error whatever the status: GitHub answers `authorization_pending` with 200.
        if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) { return .refused(error) }
        var issued = try await issued(
            response, provider: provider, client: .configured, clientID: clientID, discovery: discovery, idToken: .init(nonce: nil),
            proof: proof)
        issued.binding = binding
        return .issued(issued)
    }

    /// The token request of `grant`, authenticated as `client`, with a DPoP proof when one is
    /// due, sent; and the client id it named. A server's `use_dpop_nonce` is answered once,
    /// with its nonce in a new proof and a new client authentication (an assertion's `jti`
    /// is used once): the refused request used up neither the code nor the refresh token.
    private func send(
        _ grant: TokenRequest.Grant, provider: any IdentityProvider, client: Client, discovery: DiscoveryDocument, proof: Proof,
        additionalParameters: [(String, String)] = [], resource: URL? = nil, moreResources: [URL] = [], binding: SecretBinding
    ) async throws -> (HTTPResponse, clientID: String) {
        let clientID = try self.clientID(client, provider: provider)
        var retried = false
        while true {
            var request = TokenRequest(
                tokenEndpoint: discovery.tokenEndpoint, clientID: clientID, grant: grant,
                authentication: try await authenticator.authentication(for: client, provider: provider, discovery: discovery))
            request.additionalParameters = additionalParameters
            request.resource = resource
            request.moreResources = moreResources
            let response = try await send(
                request.httpRequest, proof: proof.key, clientID: clientID, egress: .bound(binding, provider: provider.id.rawValue))
            if proof.key != nil, !retried, DPoPNonces.asksForNonce(response) {
                retried = true
                continue
            }
            return (response, clientID)
        }
    }

    /// The token endpoint's answer read (RFC 6749 §5), its binding checked against the proof
    /// sent, its ID token validated when asked.
    private func issued(
        _ answer: HTTPResponse, provider: any IdentityProvider, client: Client, clientID: String, discovery: DiscoveryDocument,
        idToken: IDTokenExpectation?, proof: Proof, exchange: Bool = false
    ) async throws -> Issued {
        let nextStep: (OAuthErrorResponse) -> Message? =
            switch client {
            case .workload(let workload) where workload.jwtBearerAssertion != nil:
                { provider.jwtBearerNextStep(for: $0, issuer: discovery.issuer) }
            case .workload: provider.workloadNextStep(for:)
            case .configured: provider.nextStep(for:)
            }
        let host = "\(provider.id) (\(discovery.tokenEndpoint.host ?? "?"))"
        let response = try TokenResponse.parse(answer, host: host, nextStep: nextStep, exchange: exchange)
        let bound = response.tokenType == TokenResponse.dpopTokenType
        switch proof {
        case .none where bound:
            throw AuthError.invalidCredential(
                "\(host) issued a DPoP-bound token to a request that proved no key (RFC 9449 §5); authctl cannot use it. Set the provider's \(input: .dpop) to auto or always and sign in again"
            )
        case .required where !bound:
            let fix: Message =
                provider.config.isFAPI2
                ? "Check that the provider supports DPoP for this client: FAPI 2.0 requires it"
                : "Check that the provider supports DPoP for this client, or set the provider's \(input: .dpop) to auto"
            throw AuthError.invalidCredential(
                "\(host) issued a bearer token where authctl asked for one bound to its DPoP key (RFC 9449); a bearer token would be usable by anyone who copies it, so authctl refused it and stored nothing. \(fix)"
            )
        default: break
        }
        // The key is kept whenever it was proved: a public client's refresh token is bound to it
        // even when the access token comes back bearer (RFC 9449 §5), and refreshes prove it.
        let key = proof.key
        guard let expectation = idToken, let token = response.idToken else { return Issued(response: response, proofKey: key) }
        let claims = try await IDTokenVerification(clock: clock, metadata: metadata)
            .validate(token, provider: provider, discovery: discovery, clientID: clientID, nonce: expectation.nonce)
        return Issued(response: response, idTokenClaims: claims, proofKey: key)
    }

    /// A pushed authorization request (RFC 9126 §2.1): the authorization request's
    /// parameters with the client's authentication, sent to `endpoint`; its `request_uri`.
    func pushAuthorization(
        _ parameters: [(String, String)], at endpoint: URL, provider: any IdentityProvider, client: Client = .configured,
        discovery: DiscoveryDocument, binding: SecretBinding
    ) async throws -> Pushed {
        let clientID = try self.clientID(client, provider: provider)
        var form = parameters.filter { $0.0 != "client_id" }
        var headers: [String: String] = [:]
        try await authenticator.authentication(for: client, provider: provider, discovery: discovery, endpoint: endpoint)
            .apply(clientID: clientID, to: &form, headers: &headers)
        let response = try await send(
            .form(endpoint, form, headers: headers), proof: nil, clientID: clientID, egress: .bound(binding, provider: provider.id.rawValue)
        )
        return try Pushed.parse(response, host: "\(provider.id) (\(endpoint.host ?? "?"))")
    }

    /// The device authorization request (RFC 8628 §3.1) for `scopes`.
    /// With a DPoP key, its thumbprint goes as `dpop_jkt` (RFC 9449 §10): the device code is
    /// then bound to it, whatever key a poll proves.
    func deviceAuthorization(
        scopes: [String], provider: any IdentityProvider, discovery: DiscoveryDocument, proofKey: DPoPKey? = nil, binding: SecretBinding
    ) async throws -> DeviceAuthorizationResponse {
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.internalError("the device authorization request has no endpoint")
        }
        let clientID = try clientID(.configured, provider: provider)
        let request = DeviceAuthorizationRequest(
            endpoint: endpoint, clientID: clientID, scopes: scopes,
            authentication: try await authenticator.authentication(
                for: .configured, provider: provider, discovery: discovery, endpoint: endpoint),
            dpopJKT: proofKey?.thumbprint)
        return try DeviceAuthorizationResponse.parse(
            try await send(request.httpRequest, proof: nil, clientID: clientID, egress: .bound(binding, provider: provider.id.rawValue)),
            host: "\(provider.id) (\(endpoint.host ?? "?"))")
    }

    /// The backchannel authentication request (CIBA Core 1.0 §7.1) for `scopes`, naming the
    /// person by `loginHint`, with the client's authentication (the assertion's audience: the
    /// endpoint itself, as for a pushed request).
    func backchannelAuthentication(
        scopes: [String], loginHint: String, bindingMessage: String, provider: any IdentityProvider, discovery: DiscoveryDocument,
        binding: SecretBinding
    ) async throws -> BackchannelAuthenticationResponse {
        guard let endpoint = discovery.backchannelAuthenticationEndpoint else {
            throw AuthError.internalError("the backchannel authentication request has no endpoint")
        }
        let clientID = try clientID(.configured, provider: provider)
        let request = BackchannelAuthenticationRequest(
            endpoint: endpoint, clientID: clientID, scopes: scopes, loginHint: loginHint, bindingMessage: bindingMessage,
            authentication: try await authenticator.authentication(
                for: .configured, provider: provider, discovery: discovery, endpoint: endpoint))
        return try BackchannelAuthenticationResponse.parse(
            try await send(request.httpRequest, proof: nil, clientID: clientID, egress: .bound(binding, provider: provider.id.rawValue)),
            host: "\(provider.id) (\(endpoint.host ?? "?"))")
    }

    /// A request about one token at `endpoint` — revocation (RFC 7009 §2.1) or introspection
    /// (RFC 7662 §2.1) share its form: `token`, `token_type_hint` and the client's
    /// authentication. The caller reads the answer: revocation and introspection say
    /// different things with it.
    func tokenHint(
        _ token: String, isRefreshToken: Bool, at endpoint: URL, provider: any IdentityProvider, client: Client = .configured,
        discovery: DiscoveryDocument, binding: SecretBinding
    ) async throws -> EndpointAnswer {
        var parameters = [("token", token), ("token_type_hint", isRefreshToken ? "refresh_token" : "access_token")]
        var headers: [String: String] = [:]
        try await authenticator.authentication(for: client, provider: provider, discovery: discovery, endpoint: endpoint)
            .apply(clientID: try clientID(client, provider: provider), to: &parameters, headers: &headers)
        let response = try await send(
            .form(endpoint, parameters, headers: headers), proof: nil, clientID: nil,
            egress: .bound(binding, provider: provider.id.rawValue))
        return EndpointAnswer(status: response.status, json: JSONValue.object(from: response.body))
    }

    /// The client id a request names: the workload's own, or the provider's configured one.
    private func clientID(_ client: Client, provider: any IdentityProvider) throws -> String {
        if case .workload(let workload) = client { return workload.clientID }
        return try provider.requireClientID()
    }

    /// Every request of this client leaves here: bound to where its secrets may go, with a
    /// DPoP proof of `proof` (and the server's nonce, when it gave one), and the nonce it
    /// answers with remembered.
    private func send(_ request: HTTPRequest, proof: DPoPKey?, clientID: String?, egress: HTTPRequest.Egress) async throws
        -> HTTPResponse
    {
        var request = request
        request.egress = egress
        let server = DPoPNonces.Server(url: request.url, clientID: clientID)
        if let proof {
            request.headers["DPoP"] = try proof.proof(
                method: request.method, url: request.url, now: clock.now(), jti: random.base64URL(bytes: 18),
                nonce: nonces.nonce(for: server))
        }
        let response = try await transport.send(request)
        nonces.remember(response, for: server)
        return response
    }
}
