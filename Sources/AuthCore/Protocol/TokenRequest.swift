/// How the client authenticates at the token endpoint (`token_endpoint_auth_method`,
/// OpenID Connect Core 9).
public enum ClientAuthentication: Sendable, Equatable {
    /// A public client: `client_id` in the body, no secret.
    case none
    /// `client_secret_basic`: HTTP Basic with the URL-encoded id and secret (RFC 6749 §2.3.1).
    case basic(secret: String)
    /// `client_secret_post`: id and secret in the body.
    case post(secret: String)
    /// A JWT the client presents instead of a secret (RFC 7521 §4.2, RFC 7523 §2.2):
    /// `private_key_jwt`, or a federated token from another issuer.
    case assertion(String)

    /// `client_assertion_type` of a JWT assertion (RFC 7523 §2.2).
    public static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Adds the client's credentials to a request to the token or revocation endpoint.
    public func apply(clientID: String, to parameters: inout [(String, String)], headers: inout [String: String]) {
        switch self {
        case .none:
            parameters.append(("client_id", clientID))
        case .post(let secret):
            parameters += [("client_id", clientID), ("client_secret", secret)]
        case .basic(let secret):
            let credentials = "\(FormURLEncoding.escape(clientID)):\(FormURLEncoding.escape(secret))"
            headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        case .assertion(let assertion):
            parameters += [
                ("client_id", clientID), ("client_assertion_type", Self.jwtBearerAssertionType), ("client_assertion", assertion),
            ]
        }
    }
}

/// A token request (RFC 6749 §4.1.3 authorization code, §6 refresh).
public struct TokenRequest: Sendable, Equatable {
    public enum Grant: Sendable, Equatable {
        /// `grant_type=authorization_code` with the same `redirect_uri` as the authorization
        /// request and the PKCE `code_verifier`.
        case authorizationCode(code: String, redirectURI: URL, codeVerifier: String?)
        /// `grant_type=refresh_token`, optionally asking for other scopes.
        case refreshToken(String, scopes: [String]?)
        /// `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4).
        case deviceCode(String)
        /// `grant_type=urn:openid:params:grant-type:ciba` with `auth_req_id` (CIBA Core 1.0 §10.1).
        case backchannel(authReqID: String)
        /// `grant_type=client_credentials` (RFC 6749 §4.4): a workload signs in as itself.
        case clientCredentials(scopes: [String])
        /// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693 §2.1).
        case tokenExchange(TokenExchangeRequest)
        /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1): a JWT
        /// authorization grant (an identity chain's, docs/resources.md) as `assertion`.
        case jwtBearer(assertion: String, scopes: [String])

        /// `grant_type` of a JWT authorization grant (RFC 7523 §2.1).
        public static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

        /// A token exchange, whose answer may carry a token that is not an access token
        /// (`token_type` `N_A`, RFC 8693 §2.2.1).
        public var isTokenExchange: Bool {
            if case .tokenExchange = self { return true }
            return false
        }
    }

    public var tokenEndpoint: URL
    public var clientID: String
    public var grant: Grant
    public var authentication: ClientAuthentication
    public var additionalParameters: [(String, String)] = []
    /// `resource` (RFC 8707 §2.2): the protected resource the token is for; nil: none sent.
    public var resource: URL?
    /// More `resource` values after `resource` (RFC 8707 §2.2 allows several): the other
    /// resources of one sign-in for several.
    public var moreResources: [URL] = []

    public init(tokenEndpoint: URL, clientID: String, grant: Grant, authentication: ClientAuthentication) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.grant = grant
        self.authentication = authentication
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.httpRequest == rhs.httpRequest }

    public var httpRequest: HTTPRequest {
        var parameters: [(String, String)]
        switch grant {
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            parameters = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString)]
            if let codeVerifier { parameters.append(("code_verifier", codeVerifier)) }
        case .deviceCode(let deviceCode):
            parameters = [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)]
        case .backchannel(let authReqID):
            parameters = [("grant_type", "urn:openid:params:grant-type:ciba"), ("auth_req_id", authReqID)]
        case .clientCredentials(let scopes):
            parameters = [("grant_type", "client_credentials")]
            if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        case .refreshToken(let token, let scopes):
            parameters = [("grant_type", "refresh_token"), ("refresh_token", token)]
            if let scopes, !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        case .tokenExchange(let exchange):
            parameters = exchange.parameters
        case .jwtBearer(let assertion, let scopes):
            parameters = [("grant_type", Grant.jwtBearerGrantType), ("assertion", assertion)]
            if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        }
        if let resource { parameters.append(("resource", resource.absoluteString)) }
        parameters += moreResources.map { ("resource", $0.absoluteString) }
        var headers: [String: String] = [:]
        authentication.apply(clientID: clientID, to: &parameters, headers: &headers)
        return .form(tokenEndpoint, parameters + additionalParameters, headers: headers)
    }
}
