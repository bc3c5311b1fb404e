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

    /// Where the metadata of `issuer` is, in the order tried: RFC 8414 §3.1 (the well-known
    /// part inserted between the host and the issuer's path), then OpenID Connect Discovery
    /// (`<issuer>/.well-known/openid-configuration`).
    public static func locations(of issuer: String) -> [URL] {
        guard let url = URL(string: issuer), url.query == nil, url.fragment == nil else { return [] }
        let origin = ResourceIdentifier.origin(of: url)
        var path = url.path
        if path == "/" { path = "" }
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return [
            URL(string: origin + "/.well-known/oauth-authorization-server" + path.replacingEvery("%", with: "%25")),
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

/// A client registration request (RFC 7591 §2, §3.1) of a native app with loopback redirect
/// URIs (RFC 8252 §7.3) and no secret, and the server's answer (§3.2.1), checked as any
/// provider answer: bounded, typed, no control characters.
public struct ClientRegistration: Sendable, Equatable {
    public var endpoint: URL
    public var clientName: String
    public var redirectURIs: [String]
    public var grantTypes: [String]

    public init(
        endpoint: URL, clientName: String = "authctl", redirectURIs: [String],
        grantTypes: [String] = ["authorization_code", "refresh_token"]
    ) {
        self.endpoint = endpoint
        self.clientName = clientName
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
    }

    /// The client authctl registers: a public native client (`token_endpoint_auth_method:
    /// none`, PKCE binds the code) that asks for codes and refreshes them.
    public var httpRequest: HTTPRequest {
        let body: JSONValue = .object([
            "client_name": .string(clientName),
            "application_type": .string("native"),
            "redirect_uris": .array(redirectURIs.map(JSONValue.string)),
            "token_endpoint_auth_method": .string("none"),
            "grant_types": .array(grantTypes.map(JSONValue.string)),
            "response_types": .array([.string("code")]),
        ])
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return HTTPRequest(
            method: "POST", url: endpoint, headers: ["Content-Type": "application/json", "Accept": "application/json"], body: data,
            responseLimit: 64 << 10)
    }

    /// What the server registered (RFC 7591 §3.2.1, RFC 7592 §3).
    public struct Registered: Sendable, Equatable {
        public var clientID: String
        /// `registration_access_token`: a secret (RFC 7592 §3), kept as one.
        public var registrationAccessToken: String?
        /// `registration_client_uri`: where the registration is read, changed or deleted.
        public var registrationClientURI: URL?
    }

    /// Reads the server's answer; `host` names it in messages.
    public func registered(_ response: HTTPResponse) throws -> Registered {
        let place = "\(endpoint.host ?? "?")\(endpoint.path)"
        func unusable(_ why: String) -> AuthError {
            AuthError.notConfigured(
                "the client registration at \(place) answered something authctl cannot use (\(why)). Register a client yourself and add it with \(command: .providersAdd)"
            )
        }
        let json = JSONValue.object(from: response.body)
        if (400..<500).contains(response.status), let json, let error = OAuthErrorResponse(json) {
            throw AuthError.notConfigured(
                "the authorization server refused to register authctl at \(place): \(error.summary). Register a client with the server's operator, then add it: \(command: .providersAdd, "oidc.NAME", .input(.issuer, "URL"), .input(.clientID, "ID"))",
                oauthError: error.code)
        }
        guard response.status == 201 || response.status == 200 else {
            throw AuthError.network("the client registration at \(place) answered HTTP \(response.status). Try again later")
        }
        guard let json else { throw unusable("not a JSON object") }
        guard let clientID = try BoundedJSON.string(json["client_id"], field: "client_id", limit: 1024, unusable), !clientID.isEmpty else {
            throw unusable("no client_id")
        }
        let method = try BoundedJSON.string(json["token_endpoint_auth_method"], field: "token_endpoint_auth_method", limit: 64, unusable)
        if let method, method != "none" {
            throw unusable("it registered a client that authenticates with '\(method)', and authctl registers public clients only")
        }
        if json["client_secret"] != nil { throw unusable("it issued a client secret to a public client") }
        let token = try BoundedJSON.string(
            json["registration_access_token"], field: "registration_access_token", limit: 4096, unusable)
        var uri: URL?
        if let text = try BoundedJSON.string(json["registration_client_uri"], field: "registration_client_uri", limit: 2048, unusable) {
            guard let url = URL(string: text), ResourceIdentifier.origin(of: url) == ResourceIdentifier.origin(of: endpoint) else {
                throw unusable("registration_client_uri is not a URL of the registration endpoint's server")
            }
            uri = url
        }
        return Registered(clientID: clientID, registrationAccessToken: token, registrationClientURI: uri)
    }
}
