/// A client registration request (RFC 7591 §2, §3.1) of a native app with loopback redirect
/// URIs (RFC 8252 §7.3), and the server's answer (§3.2.1), checked as any provider answer:
/// bounded, typed, no control characters.
///
/// authctl asks for a public client (`none`: PKCE binds the code) unless the server lists
/// only client-secret methods (the MCP SDKs' servers do); then it asks for the one the server
/// prefers of `client_secret_basic` and `client_secret_post`. Whatever the server answers is
/// what is used: a secret it issued belongs to this one instance (RFC 8252 §8.4) and is kept
/// sealed in the keystore with the registration, never in config.json nor shown.
public struct ClientRegistration: Sendable, Equatable {
    public var endpoint: URL
    public var clientName: String
    public var redirectURIs: [String]
    public var grantTypes: [String]
    /// `token_endpoint_auth_method` asked for (`method(supported:)`).
    public var authMethod: String

    /// The client-secret methods authctl uses, as RFC 7591 names them.
    public static var secretMethods: [String] { ProviderConfig.registeredSecretMethods }

    /// The grants a browser sign-in needs; `login URL --via` adds the JWT-bearer grant (RFC 7523).
    public static let defaultGrantTypes = ["authorization_code", "refresh_token"]

    public init(
        endpoint: URL, clientName: String = "authctl", redirectURIs: [String],
        grantTypes: [String] = defaultGrantTypes, authMethod: String = "none"
    ) {
        self.endpoint = endpoint
        self.clientName = clientName
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
        self.authMethod = authMethod
    }

    /// The method to ask for, given the server's `token_endpoint_auth_methods_supported`:
    /// `none` when the server lists it or lists nothing, else the first client-secret method
    /// it lists (its order is its preference), else `none` (the server will say what it refuses).
    public static func method(supported: [String]?) -> String {
        guard let supported, !supported.contains("none") else { return "none" }
        return supported.first(where: secretMethods.contains) ?? "none"
    }

    public var httpRequest: HTTPRequest {
        let body: JSONValue = .object([
            "client_name": .string(clientName),
            "application_type": .string("native"),
            "redirect_uris": .array(redirectURIs.map(JSONValue.string)),
            "token_endpoint_auth_method": .string(authMethod),
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
        /// `client_secret`, with the method it is sent by (`client_secret_basic` or
        /// `client_secret_post`); nil for a public client.
        public var clientSecret: String?
        public var authMethod: String
        /// `client_secret_expires_at` (seconds since 1970); 0 when the secret does not expire.
        public var clientSecretExpiresAt: Int

        public init(
            clientID: String, registrationAccessToken: String? = nil, registrationClientURI: URL? = nil, clientSecret: String? = nil,
            authMethod: String = "none", clientSecretExpiresAt: Int = 0
        ) {
            self.clientID = clientID
            self.registrationAccessToken = registrationAccessToken
            self.registrationClientURI = registrationClientURI
            self.clientSecret = clientSecret
            self.authMethod = authMethod
            self.clientSecretExpiresAt = clientSecretExpiresAt
        }
    }

    /// Reads the server's answer.
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
        let secret = try BoundedJSON.string(json["client_secret"], field: "client_secret", limit: 1024, unusable)
        if let secret, secret.isEmpty || secret.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw unusable("client_secret is empty or holds control characters")
        }
        // RFC 7591 §2: absent means client_secret_basic (a secret was issued) — or none (it was not).
        let method =
            try BoundedJSON.string(json["token_endpoint_auth_method"], field: "token_endpoint_auth_method", limit: 64, unusable)
            ?? (secret == nil ? "none" : "client_secret_basic")
        guard method == "none" || Self.secretMethods.contains(method) else {
            throw unusable(
                "it registered a client that authenticates with '\(Sanitize.text(method, limit: 64))', and authctl registers public clients or clients with a secret (\(Self.secretMethods.joined(separator: ", ")))"
            )
        }
        if method != "none", secret == nil { throw unusable("it chose \(method) but issued no client_secret") }
        var expiresAt = 0
        if method != "none", let value = json["client_secret_expires_at"], value != .null {
            guard let number = value.numberValue, number.isFinite, number >= 0, number < 1e11, number == number.rounded() else {
                throw unusable("client_secret_expires_at is not a time in seconds")
            }
            expiresAt = Int(number)
        }
        let token = try BoundedJSON.string(
            json["registration_access_token"], field: "registration_access_token", limit: 4096, unusable)
        var uri: URL?
        if let text = try BoundedJSON.string(json["registration_client_uri"], field: "registration_client_uri", limit: 2048, unusable) {
            guard let url = URL(string: text), ResourceIdentifier.origin(of: url) == ResourceIdentifier.origin(of: endpoint) else {
                throw unusable("registration_client_uri is not a URL of the registration endpoint's server")
            }
            uri = url
        }
        // A secret issued to a client registered as public (`none`) is not used, nor kept.
        return Registered(
            clientID: clientID, registrationAccessToken: token, registrationClientURI: uri, clientSecret: method == "none" ? nil : secret,
            authMethod: method, clientSecretExpiresAt: expiresAt)
    }
}
