/// From a protected resource's URL to the authorization server that issues its tokens
/// (docs/resources.md): the resource's metadata (RFC 9728) — from its 401's
/// `WWW-Authenticate: Bearer resource_metadata="…"` (§5.1), else its well-known URL (§3.1) —
/// checked to name this resource (§3.3); then the server's metadata (RFC 8414, else OpenID
/// discovery) checked to name the issuer exactly. Redirects are followed only within one
/// origin, three at most; every answer is bounded.
public struct ResourceDiscovery: Sendable {
    let transport: any HTTPTransport

    public init(transport: any HTTPTransport) { self.transport = transport }

    /// What discovery found.
    public struct Found: Sendable, Equatable {
        public var metadata: ResourceMetadata
        public var server: AuthorizationServerMetadata
        /// The `scope` of the resource's challenge, when it gave one.
        public var challengeScopes: [String]? = nil
    }

    /// Discovers the server of `resource`. `issuer`: the one to use among those the resource
    /// lists (`--issuer`); nil: the first.
    public func discover(_ resource: ResourceIdentifier, issuer: String?) async throws -> Found {
        let challenge = try await challenge(of: resource)
        let scopes = challenge.map { $0.scopes.filter(BoundedJSON.isScope) }.flatMap { $0.isEmpty ? nil : Array($0.prefix(64)) }
        guard let metadata = try await resourceMetadata(resource, named: challenge?.resourceMetadata, absentIsNil: true) else {
            return try await legacy(resource, issuer: issuer, challengeScopes: scopes)
        }
        let chosen: String
        if let issuer {
            guard metadata.authorizationServers.contains(issuer) else {
                throw AuthError.invalidArgument(
                    "the resource \(resource) does not list the authorization server '\(Sanitize.text(issuer, limit: 100))'; it lists: \(metadata.authorizationServers.map { Sanitize.text($0, limit: 100) }.joined(separator: ", "))"
                )
            }
            chosen = issuer
        } else {
            chosen = metadata.authorizationServers[0]
        }
        let server = try await authorizationServer(chosen)
        try Self.requirePKCE(server)
        return Found(metadata: metadata, server: server, challengeScopes: scopes)
    }

    /// A resource that publishes no metadata of its own (no challenge names one, and both
    /// well-known URLs are 404): as MCP's 2025-03-26 revision has it, the authorization server
    /// is at the resource's origin, its RFC 8414 metadata there; and when the origin publishes
    /// none either (every location 404), that revision's default endpoints `/authorize`,
    /// `/token`, `/register` at the origin. Tokens go nowhere else than that origin. The
    /// defaults come with no `code_challenge_methods_supported` to check: that revision requires
    /// the server to be an OAuth 2.1 one, which checks PKCE, and authctl sends S256 as always.
    private func legacy(_ resource: ResourceIdentifier, issuer: String?, challengeScopes: [String]?) async throws -> Found {
        let origin = resource.origin
        if let issuer, issuer != origin {
            throw AuthError.invalidArgument(
                "the resource \(resource) publishes no metadata (RFC 9728), so its authorization server is its origin \(origin), not '\(Sanitize.text(issuer, limit: 100))'. Leave out \(input: .issuer)"
            )
        }
        let server: AuthorizationServerMetadata
        if let published = try await authorizationServer(origin, absentIsNil: true) {
            try Self.requirePKCE(published)
            server = published
        } else if let defaults = AuthorizationServerMetadata.defaultEndpoints(at: origin) {
            server = defaults
        } else {
            throw AuthError.notConfigured("the resource \(resource) publishes no metadata, and its origin is no server's. Ask its operator")
        }
        let metadata = ResourceMetadata(resource: resource, authorizationServers: [origin])
        return Found(metadata: metadata, server: server, challengeScopes: challengeScopes)
    }

    /// The MCP authorization spec's rule for a client that starts from a resource: the server's
    /// metadata lists S256 in `code_challenge_methods_supported` (absent or without it: no
    /// sign-in, since nothing says the server checks PKCE). Configured providers are not held to it.
    static func requirePKCE(_ server: AuthorizationServerMetadata) throws {
        let methods = server.document.codeChallengeMethodsSupported
        guard methods?.contains("S256") != true else { return }
        let listed =
            methods.map {
                $0.isEmpty ? "lists none" : "lists only \($0.prefix(8).map { Sanitize.text($0, limit: 20) }.joined(separator: ", "))"
            }
            ?? "does not say"
        throw AuthError.notConfigured(
            "the authorization server \(Sanitize.text(server.document.issuer, limit: 100)) does not list PKCE's S256 method in its metadata (code_challenge_methods_supported \(listed)), so authctl will not sign in there: nothing says it checks the code verifier. Ask the server's operator to list S256"
        )
    }

    /// The resource's challenge to a request without a token (RFC 9728 §5.1): to a GET, else —
    /// a GET that gets none is not the end: an MCP endpoint challenges only what an MCP client
    /// sends — to MCP's POST of `initialize` (nothing secret in it). The POST only when the GET
    /// was refused as an MCP endpoint refuses it (400, 401 without metadata, 405, 406, or 404:
    /// a server with a POST route only, as the MCP conformance suite's express servers): never
    /// to a resource that answered the GET. Nil when neither is one.
    func challenge(of resource: ResourceIdentifier) async throws -> BearerChallenge? {
        let probe = try await get(resource.url, what: "the resource")
        if let found = Self.challenge(in: probe), found.resourceMetadata != nil { return found }
        guard [400, 401, 404, 405, 406].contains(probe.status) else { return nil }
        let initialize = Data(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"authctl","version":"1"}}}"#
                .utf8)
        let post = try await transport.send(
            HTTPRequest(
                method: "POST", url: resource.url,
                headers: ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"], body: initialize,
                responseLimit: 64 << 10))
        return Self.challenge(in: post) ?? Self.challenge(in: probe)
    }

    /// The first Bearer or DPoP challenge of a 401.
    static func challenge(in response: HTTPResponse) -> BearerChallenge? {
        guard response.status == 401, let header = response.header("WWW-Authenticate") else { return nil }
        let challenges = BearerChallenge.parse(header)
        return challenges.first { $0.resourceMetadata != nil } ?? challenges.first
    }

    /// The resource's metadata: at the URL its challenge names, else its well-known URL
    /// (RFC 9728 §3.1: the well-known part inserted before the path), else the origin's
    /// (`/.well-known/oauth-protected-resource`, as the MCP authorization spec orders them).
    /// `absentIsNil`: nil, not an error, when no URL was named and every well-known one is 404.
    func resourceMetadata(_ resource: ResourceIdentifier, named: String?, absentIsNil: Bool = false) async throws -> ResourceMetadata? {
        var locations: [URL] = []
        if let named {
            guard let url = URL(string: named) else {
                throw AuthError.notConfigured("the resource \(resource) names a resource_metadata that is not a URL. Ask its operator")
            }
            try EndpointPolicy.check(url, what: "the resource's metadata URL")
            locations = [url]
        } else {
            locations = [resource.metadataURL, resource.rootMetadataURL].compactMap { $0 }
        }
        var statuses: [String] = []
        var allAbsent = true
        for location in locations {
            let answer = try await get(location, what: "the resource's metadata", limit: ResourceMetadata.responseLimit)
            if answer.status == 200 { return try ResourceMetadata.parse(answer.body, expected: resource, source: location) }
            statuses.append("\(location.host ?? "?")\(location.path) answered HTTP \(answer.status)")
            if answer.status != 404 { allAbsent = false }
        }
        if absentIsNil, named == nil, allAbsent { return nil }
        throw AuthError.notConfigured(
            "the resource \(resource) has no usable metadata: \(statuses.joined(separator: ", ")) (RFC 9728). Check the URL; a resource that does not publish its authorization server needs a provider configured by hand (\(command: .providersAdd))"
        )
    }

    /// The resource's metadata as its challenge or its well-known URLs give it.
    func resourceMetadata(_ resource: ResourceIdentifier) async throws -> ResourceMetadata? {
        let probe = try await get(resource.url, what: "the resource")
        return try await resourceMetadata(resource, named: Self.challenge(in: probe)?.resourceMetadata)
    }

    /// The metadata of the authorization server `issuer`: RFC 8414's location first, then
    /// OpenID discovery's.
    public func authorizationServer(_ issuer: String) async throws -> AuthorizationServerMetadata {
        guard let found = try await authorizationServer(issuer, absentIsNil: false) else {
            throw AuthError.notConfigured("the authorization server \(Sanitize.text(issuer, limit: 100)) publishes no metadata")
        }
        return found
    }

    /// The same; `absentIsNil`: nil, not an error, when every location answered 404.
    func authorizationServer(_ issuer: String, absentIsNil: Bool) async throws -> AuthorizationServerMetadata? {
        guard let issuerURL = URL(string: issuer), issuerURL.host != nil else {
            throw AuthError.notConfigured(
                "the authorization server '\(Sanitize.text(issuer, limit: 100))' is not a URL. Ask the resource's operator")
        }
        try EndpointPolicy.check(issuerURL, what: "the authorization server")
        var statuses: [String] = []
        var allAbsent = true
        for location in AuthorizationServerMetadata.locations(of: issuer) {
            let answer = try await get(location, what: "the authorization server's metadata")
            if answer.status == 200 { return try AuthorizationServerMetadata.parse(answer.body, issuer: issuer, source: location) }
            statuses.append("\(location.path): HTTP \(answer.status)")
            if answer.status != 404 { allAbsent = false }
        }
        if absentIsNil, allAbsent { return nil }
        throw AuthError.notConfigured(
            "the authorization server \(Sanitize.text(issuer, limit: 100)) publishes no metadata (\(statuses.joined(separator: ", "))). Ask its operator"
        )
    }

    /// A GET that follows at most three redirects, each within the first URL's origin.
    func get(_ url: URL, what: Message, limit: Int = HTTPRequest.defaultResponseLimit) async throws -> HTTPResponse {
        try EndpointPolicy.check(url, what: what)
        let origin = ResourceIdentifier.origin(of: url)
        var current = url
        for _ in 0...3 {
            let response = try await transport.send(
                HTTPRequest(url: current, headers: ["Accept": "application/json"], responseLimit: limit))
            guard (300..<400).contains(response.status), let location = response.header("Location") else { return response }
            guard let next = URL(string: location, relativeTo: current)?.absoluteURL,
                ResourceIdentifier.origin(of: next) == origin
            else {
                throw AuthError.notConfigured(
                    "\(what) at \(url.host ?? "?")\(url.path) redirects to another origin, which discovery never follows (docs/resources.md). Ask the resource's operator"
                )
            }
            current = next
        }
        throw AuthError.network("\(what) at \(url.host ?? "?")\(url.path) redirects too many times. Ask the resource's operator")
    }
}
