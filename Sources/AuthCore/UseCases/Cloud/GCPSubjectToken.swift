/// `authctl gcp-token`: the subject token of an executable-sourced external account
/// credential (Google's auth libraries, gcloud; docs/cloud.md) — the current identity's ID
/// token, or with an audience a token exchanged for it (RFC 8693) — in the type the
/// credential configuration asks (`GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE`).
public struct GCPSubjectToken: Sendable {
    /// The subject token types of Google's executable response.
    public static let idTokenType = TokenExchangeRequest.TokenType.idToken
    public static let jwtType = TokenExchangeRequest.TokenType.jwt
    public static let saml2Type = TokenExchangeRequest.TokenType.saml2

    public struct Input: Sendable {
        public var providerID: ProviderID?
        /// With an audience, a token exchanged for it; without, the ID token.
        public var exchange: TokenExchange.Input?
        /// The type the configuration asks (`GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE`); nil: none said.
        public var askedType: String?
        /// The user whose token to give; nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?

        public init(
            providerID: ProviderID? = nil, exchange: TokenExchange.Input? = nil, askedType: String? = nil, uid: String? = nil,
            chosenBy: UserChoiceReason? = nil
        ) {
            self.providerID = providerID
            self.exchange = exchange
            self.askedType = askedType
            self.uid = uid
            self.chosenBy = chosenBy
        }
    }

    public struct Output: Sendable, Equatable {
        public var token: String
        /// `token_type` of the response: the id_token or jwt URN.
        public var tokenType: String
        public var expiresAt: Date?
    }

    let refresh: TokenRefresh
    let exchange: TokenExchange

    public init(refresh: TokenRefresh, exchange: TokenExchange) {
        self.refresh = refresh
        self.exchange = exchange
    }

    public func run(_ input: Input) async throws -> Output {
        let tokenType: String
        switch input.askedType {
        case nil, "": tokenType = input.exchange == nil ? Self.idTokenType : Self.jwtType
        case Self.idTokenType, Self.jwtType: tokenType = input.askedType ?? Self.idTokenType
        case Self.saml2Type:
            throw AuthError.invalidArgument(
                "the credential configuration asks for a SAML assertion (subject_token_type saml2); authctl gives OpenID Connect tokens. Set subject_token_type to urn:ietf:params:oauth:token-type:id_token (or jwt) in the configuration and in the workload identity pool's provider"
            )
        default:
            throw AuthError.invalidArgument(
                "the credential configuration asks for a token of type '\(Sanitize.text(input.askedType ?? "", limit: 80))'; authctl gives id_token or jwt. Fix subject_token_type in the configuration"
            )
        }
        if var exchangeInput = input.exchange {
            exchangeInput.providerID = exchangeInput.providerID ?? input.providerID
            exchangeInput.uid = input.uid
            exchangeInput.chosenBy = input.chosenBy
            let output = try await exchange.run(exchangeInput).requireBearer(for: "Google's STS (as the subject token)")
            return Output(token: output.token, tokenType: tokenType, expiresAt: output.expiresAt)
        }
        let output = try await refresh.run(
            TokenRefresh.Input(providerID: input.providerID, idToken: true, uid: input.uid, chosenBy: input.chosenBy))
        return Output(token: output.token, tokenType: tokenType, expiresAt: output.expiresAt)
    }
}
