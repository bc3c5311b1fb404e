/// A protected resource's identifier (RFC 9728 §1.2, RFC 8707 §2): an absolute `https` URL
/// (loopback `http` for tests, docs/resources.md) with no query and no fragment, its scheme
/// and host in lower case, and no lone trailing `/`. `https://API.example.com/mcp?x=1` →
/// `https://api.example.com/mcp`.
public struct ResourceIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The identifier as sent in `resource` (RFC 8707) and compared with the metadata's.
    public let url: URL

    /// The identifier of the resource at `url`; refuses what cannot be one.
    public init(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
            url.user == nil, url.password == nil
        else {
            throw AuthError.invalidArgument(
                "'\(Sanitize.text(url.absoluteString, limit: 100))' is not the URL of a resource: give an absolute https:// URL without user name or password"
            )
        }
        guard scheme == "https" || (scheme == "http" && EndpointPolicy.isLoopback(host: host)) else {
            throw AuthError.invalidArgument(
                "the resource \(Sanitize.text(host, limit: 80)) is not https:// (plain http is only allowed on loopback addresses). Use the resource's https:// address"
            )
        }
        var path = url.path
        if path == "/" { path = "" }
        let literal = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port.map { ":\($0)" } ?? ""
        guard path.unicodeScalars.allSatisfy({ !Sanitize.isUnsafeToShow($0) && $0 != " " }),
            let made = URL(string: "\(scheme)://\(literal)\(port)\(Self.escapedPath(path))")
        else {
            throw AuthError.invalidArgument("the resource URL's path cannot be used. Give the resource's address as it documents it")
        }
        self.url = made
    }

    /// Parses `text` as a resource's URL.
    public init(parsing text: String) throws {
        guard text.count <= 2048, let url = URL(string: text) else {
            throw AuthError.invalidArgument("'\(Sanitize.text(text, limit: 100))' is not a URL. Give the resource's https:// address")
        }
        try self.init(url)
    }

    public var description: String { url.absoluteString }

    /// `scheme://host[:port]`: a discovery redirect must stay on it.
    public var origin: String { Self.origin(of: url) }

    static func origin(of url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return "\(url.scheme?.lowercased() ?? "")://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    private static func escapedPath(_ path: String) -> String {
        // `URL.path` is decoded: spaces and the like were refused; `%` goes back as `%25`.
        path.replacingEvery("%", with: "%25")
    }

    /// RFC 9728 §3.1: `/.well-known/oauth-protected-resource` inserted between the host and
    /// the path (`https://api.example.com/mcp` → `https://api.example.com/.well-known/oauth-protected-resource/mcp`).
    public var metadataURL: URL? {
        URL(string: origin + "/.well-known/oauth-protected-resource" + Self.escapedPath(url.path == "/" ? "" : url.path))
    }

    /// The origin's metadata URL (`/.well-known/oauth-protected-resource`), tried after
    /// `metadataURL` as the MCP authorization spec orders them; nil when that is the same URL.
    public var rootMetadataURL: URL? {
        url.path.isEmpty || url.path == "/" ? nil : URL(string: origin + "/.well-known/oauth-protected-resource")
    }

    /// True when a request to `other` is a request to this resource: the same origin, and a
    /// path equal to this one or below it at a `/` (`/mcp` covers `/mcp` and `/mcp/tools`,
    /// not `/mcpx`), judged on the path with its dot segments removed (`/mcp/../admin` is
    /// `/admin`); a path with an encoded dot, slash or backslash is covered by nothing
    /// (`RequestURL`). A token for one resource is sent to no URL this does not cover.
    public func covers(_ other: URL) -> Bool {
        guard let sent = try? RequestURL.normalized(other), let candidate = try? ResourceIdentifier(sent), candidate.origin == origin
        else { return false }
        let base = url.path, path = candidate.url.path
        if base.isEmpty || base == "/" { return true }
        return path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    /// How many path characters this identifier holds: the longest match wins.
    public var specificity: Int { url.path.count }
}

/// A protected resource's metadata (RFC 9728 §2), read from its `resource_metadata` URL or
/// its well-known URL, and checked (§3.3): its `resource` must be the identifier of the URL
/// asked. Every value is bounded and free of control characters.
public struct ResourceMetadata: Sendable, Equatable {
    /// `resource`.
    public var resource: ResourceIdentifier
    /// `authorization_servers`: issuer identifiers (RFC 8414).
    public var authorizationServers: [String]
    /// `scopes_supported`.
    public var scopesSupported: [String]?
    /// `resource_name`, for messages.
    public var resourceName: String?

    /// The most bytes of a metadata document authctl reads.
    public static let responseLimit = 64 << 10

    public init(resource: ResourceIdentifier, authorizationServers: [String], scopesSupported: [String]? = nil, resourceName: String? = nil)
    {
        self.resource = resource
        self.authorizationServers = authorizationServers
        self.scopesSupported = scopesSupported
        self.resourceName = resourceName
    }

    /// Parses the document fetched from `source` for the resource `expected`.
    public static func parse(_ data: Data, expected: ResourceIdentifier, source: URL) throws -> ResourceMetadata {
        let place = "\(source.host ?? "?")\(source.path)"
        func unusable(_ why: String) -> AuthError {
            AuthError.notConfigured(
                "the resource's metadata at \(place) is not usable (\(why)). Check the resource URL, or ask its operator")
        }
        guard let json = JSONValue.object(from: data) else { throw unusable("not a JSON object") }
        guard let resourceText = try BoundedJSON.string(json["resource"], field: "resource", limit: 2048, unusable) else {
            throw unusable("it has no resource")
        }
        let named = try? ResourceIdentifier(parsing: resourceText)
        // RFC 9728 §3.3, as the MCP SDKs apply it: the URL asked, or a resource on its origin
        // whose path is a segment-prefix of the URL's (`https://host` for `https://host/mcp`),
        // which then is the resource identifier.
        guard let named, named == expected || named.covers(expected.url) else {
            // Metadata naming another resource could send this client's tokens (and its
            // person) to someone else.
            throw AuthError.notConfigured(
                "the resource's metadata at \(place) names the resource '\(Sanitize.text(resourceText, limit: 100))', not \(expected) (RFC 9728 §3.3), so authctl will not use it. Give the resource's own URL"
            )
        }
        let servers =
            try BoundedJSON.strings(json["authorization_servers"], field: "authorization_servers", limit: 2048, count: 32, unusable) ?? []
        guard !servers.isEmpty else {
            throw unusable("it lists no authorization_servers, so authctl cannot tell where to sign in")
        }
        let scopes = try BoundedJSON.strings(json["scopes_supported"], field: "scopes_supported", limit: 256, count: 128, unusable)
        if let scopes, let bad = scopes.first(where: { !BoundedJSON.isScope($0) }) {
            throw unusable("scopes_supported holds '\(Sanitize.text(bad, limit: 40))', which is not a scope")
        }
        let name = try BoundedJSON.string(json["resource_name"], field: "resource_name", limit: 200, unusable)
        return ResourceMetadata(resource: named, authorizationServers: servers, scopesSupported: scopes, resourceName: name)
    }
}

/// Typed, bounded reads of the JSON a server sends: a string is a string of at most `limit`
/// characters without control characters, a list a list of such strings.
enum BoundedJSON {
    /// RFC 6749 §3.3 `scope-token`: printable ASCII without space, `"` and `\`.
    static func isScope(_ scope: String) -> Bool {
        !scope.isEmpty && scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    static func string(_ value: JSONValue?, field: String, limit: Int, _ unusable: (String) -> AuthError) throws -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue else { throw unusable("\(field) is not a string") }
        guard text.count <= limit, !text.unicodeScalars.contains(where: Sanitize.isUnsafeToShow) else {
            throw unusable("\(field) is too long or holds control characters")
        }
        return text
    }

    static func strings(_ value: JSONValue?, field: String, limit: Int, count: Int, _ unusable: (String) -> AuthError) throws -> [String]? {
        guard let value, value != .null else { return nil }
        guard let array = value.arrayValue, array.count <= count else {
            throw unusable("\(field) is not a list of at most \(count) strings")
        }
        return try array.map { element in
            guard let text = try string(element, field: field, limit: limit, unusable) else { throw unusable("\(field) holds null") }
            return text
        }
    }
}
