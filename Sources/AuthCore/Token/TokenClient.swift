/// The one client of a provider's token endpoint (RFC 6749 §3.2) and of the endpoints that
/// take the same client authentication: device authorization (RFC 8628 §3.1), revocation
/// (RFC 7009) and introspection (RFC 7662). Every grant authctl makes goes through
/// `requestTokens` — the code exchange, a device poll, a refresh, a workload's client
/// credentials — and every request through `send`, so that a new client authentication
/// (`ClientAuthenticator`) or a proof of possession touches one file.
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

    /// What a grant yields.
    public struct Issued: Sendable, Equatable {
        public var response: TokenResponse
        /// The ID token's claims, validated (OpenID Connect Core 3.1.3.7), when the response
        /// carried one and the caller asked for its validation.
        public var idTokenClaims: IDTokenClaims?

        public init(response: TokenResponse, idTokenClaims: IDTokenClaims? = nil) {
            self.response = response
            self.idTokenClaims = idTokenClaims
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
    let metadata: ProviderMetadata
    let authenticator: ClientAuthenticator

    public init(
        transport: any HTTPTransport, clock: any Clock, random: any RandomSource, metadataCache: any MetadataCache,
        secrets: any SecretSource
    ) {
        self.transport = transport
        self.clock = clock
        metadata = ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache)
        authenticator = ClientAuthenticator(clock: clock, random: random, secrets: secrets, transport: transport)
    }

    /// The provider's discovery document (cached).
    func discovery(for provider: any IdentityProvider) async throws -> DiscoveryDocument {
        try await metadata.discovery(for: provider)
    }

    /// Makes the provider's client authentication once, without sending it, so that one that
    /// cannot be made (Apple: the key file missing or unsafe) fails before a browser opens.
    func checkClientAuthentication(_ provider: any IdentityProvider) async throws {
        _ = try await authenticator.configured(provider)
    }

    /// One grant at the token endpoint (RFC 6749 §4.1.3, §4.4, §6).
    /// - Parameters:
    ///   - idToken: what an ID token in the answer must be; nil: not validated here
    ///     (a workload's grant, which keeps none).
    ///   - resource: the protected resource the token is for (RFC 8707 §2.2), sent as `resource`.
    func requestTokens(
        _ grant: TokenRequest.Grant, provider: any IdentityProvider, client: Client = .configured, discovery: DiscoveryDocument,
        idToken: IDTokenExpectation? = nil, resource: URL? = nil
    ) async throws -> Issued {
        let (response, clientID) = try await send(grant, provider: provider, client: client, discovery: discovery, resource: resource)
        return try await issued(response, provider: provider, client: client, clientID: clientID, discovery: discovery, idToken: idToken)
    }

    /// One poll of the device flow (RFC 8628 §3.4): the tokens, or the provider's OAuth
    /// error as an answer (`authorization_pending`, `slow_down`, …) for `DeviceTokenPolling`
    /// to judge. The ID token is validated as a sign-in's, with no nonce.
    func poll(deviceCode: String, provider: any IdentityProvider, discovery: DiscoveryDocument) async throws -> DevicePoll {
        let (response, clientID) = try await send(.deviceCode(deviceCode), provider: provider, client: .configured, discovery: discovery)
        // An OAuth error whatever the status: GitHub answers `authorization_pending` with 200.
        if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) { return .refused(error) }
        return .issued(
            try await issued(
                response, provider: provider, client: .configured, clientID: clientID, discovery: discovery, idToken: .init(nonce: nil)))
    }

    /// The token request of `grant`, authenticated as `client`, sent; and the client id it named.
    private func send(
        _ grant: TokenRequest.Grant, provider: any IdentityProvider, client: Client, discovery: DiscoveryDocument, resource: URL? = nil
    ) async throws -> (HTTPResponse, clientID: String) {
        let clientID = try self.clientID(client, provider: provider)
        var request = TokenRequest(
            tokenEndpoint: discovery.tokenEndpoint, clientID: clientID, grant: grant,
            authentication: try await authenticator.authentication(for: client, provider: provider, discovery: discovery))
        request.resource = resource
        return (try await send(request.httpRequest), clientID)
    }

    /// The token endpoint's answer read (RFC 6749 §5), its ID token validated when asked.
    private func issued(
        _ answer: HTTPResponse, provider: any IdentityProvider, client: Client, clientID: String, discovery: DiscoveryDocument,
        idToken: IDTokenExpectation?
    ) async throws -> Issued {
        let nextStep: (OAuthErrorResponse) -> Message? =
            if case .workload = client { provider.workloadNextStep(for:) } else { provider.nextStep(for:) }
        let response = try TokenResponse.parse(answer, host: "\(provider.id) (\(discovery.tokenEndpoint.host ?? "?"))", nextStep: nextStep)
        guard let expectation = idToken, let token = response.idToken else { return Issued(response: response) }
        let claims = try await IDTokenVerification(clock: clock, metadata: metadata)
            .validate(token, provider: provider, discovery: discovery, clientID: clientID, nonce: expectation.nonce)
        return Issued(response: response, idTokenClaims: claims)
    }

    /// The device authorization request (RFC 8628 §3.1) for `scopes`.
    func deviceAuthorization(scopes: [String], provider: any IdentityProvider, discovery: DiscoveryDocument) async throws
        -> DeviceAuthorizationResponse
    {
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.internalError("the device authorization request has no endpoint")
        }
        let request = DeviceAuthorizationRequest(
            endpoint: endpoint, clientID: try clientID(.configured, provider: provider), scopes: scopes,
            authentication: try await authenticator.authentication(for: .configured, provider: provider, discovery: discovery))
        return try DeviceAuthorizationResponse.parse(try await send(request.httpRequest), host: "\(provider.id) (\(endpoint.host ?? "?"))")
    }

    /// A request about one token at `endpoint` — revocation (RFC 7009 §2.1) or introspection
    /// (RFC 7662 §2.1) share its form: `token`, `token_type_hint` and the client's
    /// authentication. The caller reads the answer: revocation and introspection say
    /// different things with it.
    func tokenHint(
        _ token: String, isRefreshToken: Bool, at endpoint: URL, provider: any IdentityProvider, client: Client = .configured,
        discovery: DiscoveryDocument
    ) async throws -> EndpointAnswer {
        var parameters = [("token", token), ("token_type_hint", isRefreshToken ? "refresh_token" : "access_token")]
        var headers: [String: String] = [:]
        try await authenticator.authentication(for: client, provider: provider, discovery: discovery)
            .apply(clientID: try clientID(client, provider: provider), to: &parameters, headers: &headers)
        let response = try await send(.form(endpoint, parameters, headers: headers))
        return EndpointAnswer(status: response.status, json: JSONValue.object(from: response.body))
    }

    /// The client id a request names: the workload's own, or the provider's configured one.
    private func clientID(_ client: Client, provider: any IdentityProvider) throws -> String {
        if case .workload(let workload) = client { return workload.clientID }
        return try provider.requireClientID()
    }

    /// Every request of this client leaves here.
    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.send(request)
    }
}
