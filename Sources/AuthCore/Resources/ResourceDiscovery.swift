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
    }

    /// Discovers the server of `resource`. `issuer`: the one to use among those the resource
    /// lists (`--issuer`); nil: the first.
    public func discover(_ resource: ResourceIdentifier, issuer: String?) async throws -> Found {
        let metadata = try await resourceMetadata(resource)
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
        return Found(metadata: metadata, server: try await authorizationServer(chosen))
    }

    /// The resource's metadata: the URL its challenge names, else its well-known URL.
    func resourceMetadata(_ resource: ResourceIdentifier) async throws -> ResourceMetadata {
        var location = resource.metadataURL
        let probe = try await get(resource.url, what: "the resource")
        if probe.status == 401, let header = probe.header("WWW-Authenticate"),
            let named = BearerChallenge.parse(header).compactMap(\.resourceMetadata).first
        {
            guard let url = URL(string: named) else {
                throw AuthError.notConfigured("the resource \(resource) names a resource_metadata that is not a URL. Ask its operator")
            }
            try EndpointPolicy.check(url, what: "the resource's metadata URL")
            location = url
        }
        guard let location else { throw AuthError.internalError("the resource \(resource) has no metadata URL") }
        let answer = try await get(location, what: "the resource's metadata", limit: ResourceMetadata.responseLimit)
        guard answer.status == 200 else {
            throw AuthError.notConfigured(
                "the resource \(resource) has no usable metadata: \(location.host ?? "?")\(location.path) answered HTTP \(answer.status) (RFC 9728). Check the URL; a resource that does not publish its authorization server needs a provider configured by hand (\(command: .providersAdd))"
            )
        }
        return try ResourceMetadata.parse(answer.body, expected: resource, source: location)
    }

    /// The metadata of the authorization server `issuer`: RFC 8414's location first, then
    /// OpenID discovery's.
    public func authorizationServer(_ issuer: String) async throws -> AuthorizationServerMetadata {
        guard let issuerURL = URL(string: issuer), issuerURL.host != nil else {
            throw AuthError.notConfigured(
                "the authorization server '\(Sanitize.text(issuer, limit: 100))' is not a URL. Ask the resource's operator")
        }
        try EndpointPolicy.check(issuerURL, what: "the authorization server")
        var statuses: [String] = []
        for location in AuthorizationServerMetadata.locations(of: issuer) {
            let answer = try await get(location, what: "the authorization server's metadata")
            if answer.status == 200 { return try AuthorizationServerMetadata.parse(answer.body, issuer: issuer, source: location) }
            statuses.append("\(location.path): HTTP \(answer.status)")
        }
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
