/// Fetches (and caches) a provider's discovery document and JWK Set (docs/sign-in.md step 1).
struct ProviderMetadata: Sendable {
    let transport: any HTTPTransport
    let clock: any Clock
    let metadataCache: any MetadataCache

    init(transport: any HTTPTransport, clock: any Clock, metadataCache: any MetadataCache) {
        self.transport = transport
        self.clock = clock
        self.metadataCache = metadataCache
    }

    static let discoveryTTL: TimeInterval = 24 * 3600
    static let keysTTL: TimeInterval = 3600

    func discovery(for provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        if let documented = provider.documentedMetadata { return documented }
        if let cached = try cachedDiscovery(for: provider) { return cached }
        return try await fetchDiscovery(for: provider)
    }

    /// The discovery document for a sign-in that is about to wait on the provider: one from
    /// the cache is trusted only once the authorization endpoint's address takes a connection,
    /// so that a provider that is down fails at once (`network-request-failed`, its address
    /// named) rather than at the end of `--timeout` (issue 38).
    func signInDiscovery(for provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        if let documented = provider.documentedMetadata { return documented }
        guard let cached = try cachedDiscovery(for: provider) else { return try await fetchDiscovery(for: provider) }
        try await transport.reach(cached.authorizationEndpoint, what: "\(provider.id)'s authorization endpoint")
        return cached
    }

    private func cachedDiscovery(for provider: any ProviderDiscovery & ErrorAdvice) throws -> DiscoveryDocument? {
        let url = provider.discoveryURL
        try EndpointPolicy.check(url, what: "the discovery URL")
        guard let cached = metadataCache.load(url), cached.serves(url, as: .discovery, for: provider.issuer),
            clock.now().timeIntervalSince(cached.fetchedAt) < Self.discoveryTTL
        else { return nil }
        return try? DiscoveryDocument.parse(cached.body, source: url, checkIssuer: provider.checkDiscoveryIssuer)
    }

    private func fetchDiscovery(for provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        let url = provider.discoveryURL
        try EndpointPolicy.check(url, what: "the discovery URL")
        let now = clock.now()
        let body = try await fetch(url, what: "discovery document", of: "\(provider.id)", nextStep: provider.nextStep(for:))
        let document = try DiscoveryDocument.parse(body, source: url, checkIssuer: provider.checkDiscoveryIssuer)
        metadataCache.store(CachedDocument(url: url, kind: .discovery, issuer: provider.issuer, fetchedAt: now, body: body))
        return document
    }

    func keys(for discovery: DiscoveryDocument, forceRefresh: Bool = false) async throws -> JSONWebKeySet {
        guard let url = discovery.jwksURI else {
            throw AuthError.notConfigured(
                "the authorization server \(Sanitize.text(discovery.issuer, limit: 100)) issued an ID token but publishes no keys to check it (no jwks_uri in its metadata), so authctl will not use it. Ask the server's operator, or sign in without the openid scope"
            )
        }
        let now = clock.now()
        // A forced refetch (a token names an unknown key id: a rotation) always asks the
        // provider; IDTokenValidator asks for it at most once per validation, so a sign-in
        // fetches the key set at most twice. A cool-down across processes would refuse
        // sign-ins for its whole length after a rotation.
        if !forceRefresh, let cached = metadataCache.load(url), cached.serves(url, as: .keySet, for: discovery.issuer),
            now.timeIntervalSince(cached.fetchedAt) < Self.keysTTL, let keys = JSONWebKeySet(data: cached.body)
        {
            return keys
        }
        let body = try await fetch(url, what: "key set (JWKS)", of: "the provider")
        guard let keys = JSONWebKeySet(data: body) else {
            throw AuthError.notConfigured("the provider's key set at \(Sanitize.url(url)) is not a JWK Set. Check the provider")
        }
        metadataCache.store(CachedDocument(url: url, kind: .keySet, issuer: discovery.issuer, fetchedAt: now, body: body))
        return keys
    }

    /// `owner`: who serves it, for messages (the provider id, which names more than a host).
    private func fetch(_ url: URL, what: String, of owner: String, nextStep: (OAuthErrorResponse) -> Message? = { _ in nil }) async throws
        -> Data
    {
        let response = try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        // A 4xx with an OAuth error body is the provider saying the configuration is wrong
        // (Microsoft: AADSTS90002, no such tenant).
        if (400..<500).contains(response.status), let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) {
            throw AuthError.notConfigured(
                "\(owner) refused its \(what) at \(Sanitize.url(url)): \(error.summary). \(nextStep(error) ?? "Check the provider's configuration with: \(command: .providersShow)")",
                oauthError: error.code)
        }
        guard response.status == 200 else {
            throw AuthError.network(
                "\(owner)'s \(what) at \(Sanitize.url(url)) answered HTTP \(response.status). Check the issuer URL, or try again later"
            )
        }
        return response.body
    }
}
