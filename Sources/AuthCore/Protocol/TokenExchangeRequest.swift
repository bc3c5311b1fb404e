/// The parameters of an OAuth 2.0 Token Exchange request (RFC 8693 §2.1), sent as
/// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` through the token client
/// (`TokenRequest.Grant.tokenExchange`).
///
///     subject_token=eyJ…&subject_token_type=urn:ietf:params:oauth:token-type:id_token
///     &audience=https://api.example.com&requested_token_type=urn:ietf:params:oauth:token-type:access_token
public struct TokenExchangeRequest: Sendable, Equatable {
    /// `grant_type` (RFC 8693 §2.1).
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// Token type identifiers (RFC 8693 §3).
    public enum TokenType {
        public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
        public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
        public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
        public static let jwt = "urn:ietf:params:oauth:token-type:jwt"
        public static let saml1 = "urn:ietf:params:oauth:token-type:saml1"
        public static let saml2 = "urn:ietf:params:oauth:token-type:saml2"
        /// An Identity Assertion JWT Authorization Grant (draft-ietf-oauth-identity-assertion-authz-grant).
        public static let idJAG = "urn:ietf:params:oauth:token-type:id-jag"

        /// A short name (`access_token`, `id_token`, `jwt`…) as its URN; a URN or URI as it is.
        public static func identifier(_ name: String) -> String {
            name.contains(":") ? name : "urn:ietf:params:oauth:token-type:\(name)"
        }
    }

    /// `subject_token`: the token that represents the party on whose behalf the request is made.
    public var subjectToken: String
    /// `subject_token_type`.
    public var subjectTokenType: String
    /// `audience` (zero or one here; RFC 8693 allows several).
    public var audience: String?
    /// `resource` (RFC 8693 §2.1, RFC 8707): an absolute URI.
    public var resource: String?
    /// `scope`.
    public var scopes: [String]
    /// `requested_token_type`.
    public var requestedTokenType: String?
    /// `actor_token` and `actor_token_type` (delegation, RFC 8693 §1.1).
    public var actorToken: String?
    public var actorTokenType: String?

    public init(
        subjectToken: String, subjectTokenType: String, audience: String? = nil, resource: String? = nil, scopes: [String] = [],
        requestedTokenType: String? = nil, actorToken: String? = nil, actorTokenType: String? = nil
    ) {
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.audience = audience
        self.resource = resource
        self.scopes = scopes
        self.requestedTokenType = requestedTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
    }

    /// The form parameters, `grant_type` first; absent values are not sent.
    public var parameters: [(String, String)] {
        var parameters = [("grant_type", Self.grantType)]
        if let resource { parameters.append(("resource", resource)) }
        if let audience { parameters.append(("audience", audience)) }
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        if let requestedTokenType { parameters.append(("requested_token_type", requestedTokenType)) }
        parameters += [("subject_token", subjectToken), ("subject_token_type", subjectTokenType)]
        if let actorToken {
            parameters += [("actor_token", actorToken), ("actor_token_type", actorTokenType ?? TokenType.jwt)]
        }
        return parameters
    }
}
