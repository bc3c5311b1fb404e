/// The authorization request of the code flow (RFC 6749 §4.1.1, OpenID Connect Core
/// 3.1.2.1, RFC 7636 §4.3). `state`, `nonce` and the PKCE pair come in from the caller;
/// only `AuthorizationAttempt.generate` draws them.
public struct AuthorizationRequest: Sendable, Equatable {
    /// The provider's `authorization_endpoint`.
    public var authorizationEndpoint: URL
    /// The issuer this request goes to (the mix-up defence compares `iss` with it, RFC 9207).
    public var issuer: String
    /// `client_id`.
    public var clientID: String
    /// `redirect_uri`: the loopback address the listener is bound to.
    public var redirectURI: URL
    /// `scope`: space-separated; `openid` is always present.
    public var scopes: [String]
    /// `response_type`: `code` (or `id_token` for the implicit flow).
    public var responseType: String
    /// `response_mode`: nil (query) or `form_post`.
    public var responseMode: String?
    /// `state` (RFC 6749 §10.12): at least 128 bits from a CSPRNG.
    public var state: String
    /// `nonce` as sent on the wire (OpenID Connect Core 3.1.2.1).
    public var nonce: String
    /// The PKCE pair; nil only for the implicit flow.
    public var pkce: PKCE?
    /// Custom parameters (`prompt`, `login_hint`, …); reserved names are refused earlier.
    public var additionalParameters: [(String, String)]

    public init(
        authorizationEndpoint: URL, issuer: String, clientID: String, redirectURI: URL, scopes: [String],
        responseType: String = "code", responseMode: String? = nil, state: String, nonce: String, pkce: PKCE?,
        additionalParameters: [(String, String)] = []
    ) {
        self.authorizationEndpoint = authorizationEndpoint
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.responseType = responseType
        self.responseMode = responseMode
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.additionalParameters = additionalParameters
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { (try? lhs.url()) == (try? rhs.url()) && lhs.issuer == rhs.issuer }

    /// The parameter names an application may not set with `--param` (docs/sign-in.md).
    public static let reservedParameters: Set<String> = [
        "client_id", "response_type", "redirect_uri", "state", "scope", "response_mode", "nonce",
        "code_challenge", "code_challenge_method", "dpop_jkt", "request_uri", "authorization_details",
    ]

    /// The request's parameters, in the order they are sent (the URL's query, or a pushed
    /// request's body, RFC 9126 §2.1).
    public var parameters: [(String, String)] {
        var parameters: [(String, String)] = [
            ("response_type", responseType),
            ("client_id", clientID),
            ("redirect_uri", redirectURI.absoluteString),
        ]
        // No scopes chosen (a resource that names none): no parameter, and the server's
        // default applies (RFC 6749 §3.3); an empty `scope=` is refused by some servers.
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        parameters += [("state", state), ("nonce", nonce)]
        if let pkce {
            parameters.append(("code_challenge", pkce.codeChallenge))
            parameters.append(("code_challenge_method", pkce.codeChallengeMethod))
        }
        if let responseMode { parameters.append(("response_mode", responseMode)) }
        return parameters + additionalParameters
    }

    /// The URL to open in the browser: the endpoint with the parameters added to its query
    /// (an endpoint's own query is kept, RFC 6749 §3.1). An endpoint with a fragment, which
    /// §3.1 forbids, is refused: the parameters would land in the fragment and never reach
    /// the provider.
    public func url() throws -> URL {
        let parameters = self.parameters
        let place = "\(authorizationEndpoint.host ?? "?")\(authorizationEndpoint.path)"
        guard authorizationEndpoint.fragment == nil,
            var components = URLComponents(url: authorizationEndpoint, resolvingAgainstBaseURL: false)
        else {
            throw AuthError.notConfigured(
                "the provider's authorization endpoint (\(place)) has a fragment, which OAuth forbids (RFC 6749 §3.1). Check the provider's discovery document"
            )
        }
        let own = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
        let encoded = FormURLEncoding.encode(parameters)
        components.percentEncodedQuery = own.map { "\($0)&\(encoded)" } ?? encoded
        guard let url = components.url else {
            throw AuthError.notConfigured(
                "the provider's authorization endpoint (\(place)) cannot carry a request. Check its discovery document")
        }
        return url
    }

    /// Adds user scopes to default scopes, keeping order, without duplicates, `openid` first.
    public static func mergeScopes(_ defaults: [String], _ extra: [String]) -> [String] {
        var result = ["openid"]
        for scope in defaults + extra where !scope.isEmpty && !result.contains(scope) { result.append(scope) }
        return result
    }

    /// Refuses reserved custom parameters with an error naming the parameter.
    public static func checkCustomParameters(_ parameters: [(String, String)]) throws {
        for (name, _) in parameters where reservedParameters.contains(name) {
            throw AuthError.invalidArgument(
                "the custom parameter '\(name)' is reserved: authctl sets it itself. Remove '\(input: .parameter) \(name)=…'")
        }
    }
}
