/// An authorization server's metadata (RFC 8414 §2, or OpenID Connect Discovery 1.0 §3):
/// the endpoints a sign-in needs (`DiscoveryDocument`), and what a client that starts from a
/// resource needs besides: where to register (RFC 7591 §3), the scopes it offers, and whether
/// it takes a client ID metadata document as `client_id`.
public struct AuthorizationServerMetadata: Sendable, Equatable {
    public var document: DiscoveryDocument
    /// `registration_endpoint` (RFC 7591 §3).
    public var registrationEndpoint: URL?
    /// `scopes_supported`.
    public var scopesSupported: [String]?
    /// `client_id_metadata_document_supported` (draft-ietf-oauth-client-id-metadata-document).
    public var clientIDMetadataDocumentSupported: Bool
    /// Where the document was read (RFC 8414's location, or OpenID discovery's).
    public var source: URL
    /// True when no document was read: MCP 2025-03-26's default endpoints (`defaultEndpoints(at:)`).
    public var defaultEndpoints = false

    public init(
        document: DiscoveryDocument, registrationEndpoint: URL? = nil, scopesSupported: [String]? = nil,
        clientIDMetadataDocumentSupported: Bool = false, source: URL
    ) {
        self.document = document
        self.registrationEndpoint = registrationEndpoint
        self.scopesSupported = scopesSupported
        self.clientIDMetadataDocumentSupported = clientIDMetadataDocumentSupported
        self.source = source
    }

    /// MCP 2025-03-26's "fallbacks for servers without metadata discovery": `/authorize`,
    /// `/token` and `/register` under the authorization base URL, the resource's origin `issuer`.
    /// Nil when `issuer` is not an origin authctl may talk to.
    public static func defaultEndpoints(at issuer: String) -> AuthorizationServerMetadata? {
        guard let document = DiscoveryDocument.defaultEndpoints(at: issuer), let source = URL(string: issuer),
            let registration = URL(string: issuer + "/register")
        else { return nil }
        var metadata = AuthorizationServerMetadata(document: document, registrationEndpoint: registration, source: source)
        metadata.defaultEndpoints = true
        return metadata
    }

    /// Where the metadata of `issuer` is, in the order the MCP authorization spec tries them:
    /// RFC 8414 §3.1 (the well-known part inserted between the host and the issuer's path);
    /// for an issuer with a path, OpenID Connect Discovery's well-known part inserted the same
    /// way; then OpenID Connect Discovery's own (`<issuer>/.well-known/openid-configuration`).
    public static func locations(of issuer: String) -> [URL] {
        guard let url = URL(string: issuer), url.query == nil, url.fragment == nil else { return [] }
        let origin = ResourceIdentifier.origin(of: url)
        var path = url.path
        if path == "/" { path = "" }
        let escaped = path.replacingEvery("%", with: "%25")
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return [
            URL(string: origin + "/.well-known/oauth-authorization-server" + escaped),
            path.isEmpty ? nil : URL(string: origin + "/.well-known/openid-configuration" + escaped),
            URL(string: trimmed + "/.well-known/openid-configuration"),
        ].compactMap { $0 }
    }

    /// Parses and checks the document read at `source`: its `issuer` must be `issuer`
    /// exactly (RFC 8414 §3.3), every endpoint https (loopback http allowed).
    public static func parse(_ data: Data, issuer: String, source: URL) throws -> AuthorizationServerMetadata {
        let document = try DiscoveryDocument.parse(data, source: source) { named in
            guard named == issuer else {
                throw AuthError.notConfigured(
                    "the authorization server's metadata at \(source.host ?? "?")\(source.path) names the issuer '\(Sanitize.text(named, limit: 100))', not '\(Sanitize.text(issuer, limit: 100))' that the resource lists (RFC 8414 §3.3), so authctl will not use it. Ask the resource's operator"
                )
            }
        }
        let place = "\(source.host ?? "?")\(source.path)"
        func unusable(_ why: String) -> AuthError {
            AuthError.notConfigured("the authorization server's metadata at \(place) is not usable (\(why)). Ask the server's operator")
        }
        let json = JSONValue.object(from: data) ?? [:]
        var registration: URL?
        if let text = try BoundedJSON.string(json["registration_endpoint"], field: "registration_endpoint", limit: 2048, unusable) {
            guard let url = URL(string: text) else { throw unusable("registration_endpoint is not a URL") }
            try EndpointPolicy.check(url, what: "the registration endpoint")
            registration = url
        }
        let scopes = try BoundedJSON.strings(json["scopes_supported"], field: "scopes_supported", limit: 256, count: 256, unusable)?
            .filter(BoundedJSON.isScope)
        return AuthorizationServerMetadata(
            document: document, registrationEndpoint: registration, scopesSupported: scopes,
            clientIDMetadataDocumentSupported: json["client_id_metadata_document_supported"]?.boolValue == true, source: source)
    }
}
