/// `authctl token --exchange`: the current identity's token exchanged at its provider's token
/// endpoint for another (OAuth 2.0 Token Exchange, RFC 8693), through the one token client
/// and the identity's own client authentication (docs/cloud.md).
///
/// The subject token is the identity's access token or ID token, refreshed first when it is
/// about to expire (`TokenRefresh`). The result is cached with the identity's tokens under
/// (audience, resource, scopes, requested type, subject type) until `minimumTTL` before it
/// expires: sealed when the keystore is, dropped by `signout`, never exported. A request with
/// an actor token (delegation) is not cached: the actor may differ at each call.
public struct TokenExchange: Sendable {
    /// Which of the identity's tokens is the subject token.
    public enum SubjectToken: String, Sendable, Equatable, CaseIterable {
        case accessToken = "access_token"
        case idToken = "id_token"

        var tokenType: String {
            switch self {
            case .accessToken: TokenExchangeRequest.TokenType.accessToken
            case .idToken: TokenExchangeRequest.TokenType.idToken
            }
        }
    }

    /// Where the actor token is read, afresh at each exchange (never from a command line).
    public enum ActorTokenSource: Sendable, Equatable {
        case file(String)
        case environment(String)
    }

    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var audience: String?
        public var resource: String?
        public var scopes: [String]
        /// `requested_token_type` as given (a short name such as `jwt`, or a URN).
        public var requestedTokenType: String?
        public var subjectToken: SubjectToken
        public var actorToken: ActorTokenSource?
        public var actorTokenType: String?
        public var minimumTTL: TimeInterval
        public var forceRefresh: Bool
        /// The user whose token to exchange; nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?
        /// False: the issued token is not cached (an identity chain's grant is taken once).
        public var cached = true

        public init(
            providerID: ProviderID? = nil, audience: String? = nil, resource: String? = nil, scopes: [String] = [],
            requestedTokenType: String? = nil, subjectToken: SubjectToken = .accessToken, actorToken: ActorTokenSource? = nil,
            actorTokenType: String? = nil, minimumTTL: TimeInterval = 60, forceRefresh: Bool = false, uid: String? = nil
        ) {
            self.providerID = providerID
            self.audience = audience
            self.resource = resource
            self.scopes = scopes
            self.requestedTokenType = requestedTokenType
            self.subjectToken = subjectToken
            self.actorToken = actorToken
            self.actorTokenType = actorTokenType
            self.minimumTTL = minimumTTL
            self.forceRefresh = forceRefresh
            self.uid = uid
        }

        var requestedType: String? { requestedTokenType.map(TokenExchangeRequest.TokenType.identifier) }

        /// The cache entry's key; nil (not cached) with an actor token.
        var cacheKey: String? {
            guard actorToken == nil, cached else { return nil }
            return DerivedCredential.key(
                "token-exchange",
                [
                    ("audience", audience), ("resource", resource),
                    ("scope", scopes.isEmpty ? nil : TokenSet.scopeKey(scopes)), ("requested_token_type", requestedType),
                    ("subject_token_type", subjectToken.tokenType),
                ])
        }

        /// What `TokenRefresh` is asked for the subject token.
        var subjectInput: TokenRefresh.Input {
            TokenRefresh.Input(providerID: providerID, idToken: subjectToken == .idToken, uid: uid, chosenBy: chosenBy)
        }
    }

    public struct Output: Sendable, Equatable {
        public var uid: String
        public var providerID: String
        /// The issued token (`access_token` of the answer, whatever its type).
        public var token: String
        /// `Bearer`, or `N_A` for a token that is not an access token.
        public var tokenType: String
        public var issuedTokenType: String?
        public var expiresAt: Date?
        public var scopes: [String]
        /// True when this call made the exchange; false: from the cache.
        public var exchanged: Bool
        /// The identity's DPoP key, when the issued token came back bound to it (`tokenType`
        /// `DPoP`, RFC 9449): each use of it needs a proof made by this key. Never printed.
        public var proofKey: DPoPKey? = nil

        var isDPoPBound: Bool { CachedTokenAnswer.isDPoP(tokenType) }

        /// This output, when its token is not bound to a DPoP key: `client` (the command's
        /// output, STS) can present only the token itself, never a proof (RFC 9449 §7).
        public func requireBearer(for client: String) throws -> Output {
            guard isDPoPBound else { return self }
            throw AuthError.invalidArgument(
                "\(providerID) issued the exchanged token bound to your identity's DPoP key (RFC 9449): it is useless without a proof made for each request, and \(client) can present only the token itself, no proof. Ask for a type of token that is not an access token (\(input: .requestedTokenType) jwt), or have the provider issue bearer tokens: \(command: .providersAdd, "\(providerID)", .input(.dpop, "never")) and sign in again"
            )
        }
    }

    let keystore: any Keystore
    let configStore: ConfigStore
    let tokens: TokenClient
    let refresh: TokenRefresh
    let secrets: any SecretSource
    let clock: any Clock

    /// - Parameters:
    ///   - tokens: the exchange goes through it.
    ///   - refresh: gives a valid subject token.
    ///   - secrets: the actor token is read through it.
    public init(
        keystore: any Keystore, configStore: ConfigStore, tokens: TokenClient, refresh: TokenRefresh, secrets: any SecretSource,
        clock: any Clock
    ) {
        self.keystore = keystore
        self.configStore = configStore
        self.tokens = tokens
        self.refresh = refresh
        self.secrets = secrets
        self.clock = clock
    }

    public func run(_ input: Input) async throws -> Output {
        guard input.audience != nil || input.resource != nil else {
            throw AuthError.invalidArgument(
                "a token exchange needs to know what the token is for: give \(input: .audience) (a logical name the provider knows) or \(input: .resource) (a URL)"
            )
        }
        let user = try TokenRefresh.resolveUser(input.subjectInput, keystore: keystore)
        let (providerID, tokenSet) = try TokenRefresh.select(input.subjectInput, of: user)
        if let key = input.cacheKey, !input.forceRefresh,
            let output = Self.cached(
                tokenSet, key: key, uid: user.uid, providerID: providerID, now: clock.now(), minimumTTL: input.minimumTTL)
        {
            return output
        }
        var subjectInput = input.subjectInput
        subjectInput.uid = user.uid
        subjectInput.providerID = try ProviderID(parsing: providerID)
        let subject = try await refresh.run(subjectInput)
        guard let identity = user.identity(for: providerID) else { throw AuthError.userRemoved(user.uid) }
        // A DPoP-bound identity's exchange proves its key (RFC 9449 §5, as its refreshes do), so
        // that a server holding the subject token to its `cnf.jkt` takes it; the token issued may
        // come back bearer or bound, as the server decides (`Output.proofKey`).
        let proof: TokenClient.Proof = try Self.proof(subject: subject, providerID: providerID)
        let provider: any IdentityProvider
        let client: TokenClient.Client
        if let workload = identity.workload {
            provider = try WorkloadGrant.provider(try configStore.workloadProvider(ProviderID(parsing: providerID)), for: workload)
            client = .workload(workload)
        } else {
            provider = try configStore.identityProvider(ProviderID(parsing: providerID)).provider(forSessionOf: identity)
            client = .configured
        }
        let discovery = try await tokens.discovery(for: provider)
        let actor = try input.actorToken.map(actorToken)
        let request = TokenExchangeRequest(
            subjectToken: subject.token, subjectTokenType: input.subjectToken.tokenType, audience: input.audience,
            resource: input.resource, scopes: input.scopes, requestedTokenType: input.requestedType, actorToken: actor,
            actorTokenType: actor == nil ? nil : input.actorTokenType.map(TokenExchangeRequest.TokenType.identifier))
        let issued: TokenClient.Issued
        do {
            issued = try await tokens.requestTokens(
                .tokenExchange(request), provider: provider, client: client, discovery: discovery, proof: proof,
                binding: identity.binding)
        } catch let error as AuthError where error.code == .invalidCredential && error.oauthError != nil {
            throw Self.refused(error, providerID: providerID)
        }
        let response = issued.response
        let now = clock.now()
        let expiresAt = response.expiresIn.map { now.addingTimeInterval($0) }
        let exchanged = ExchangedToken(
            token: response.accessToken, tokenType: response.tokenType, issuedTokenType: response.issuedTokenType,
            scopes: response.scopes)
        if let key = input.cacheKey, let expiresAt {
            try await Self.store(
                DerivedCredential(.exchangedToken(exchanged), expiresAt: expiresAt), key: key, uid: user.uid, providerID: providerID,
                keystore: keystore, now: now)
        }
        var output = Output(
            uid: user.uid, providerID: providerID, token: exchanged.token, tokenType: exchanged.tokenType,
            issuedTokenType: exchanged.issuedTokenType, expiresAt: expiresAt, scopes: exchanged.scopes ?? input.scopes,
            exchanged: true)
        output.proofKey = output.isDPoPBound ? issued.proofKey : nil
        return output
    }

    /// The proof an exchange of `subject` carries: the identity's DPoP key when its access token
    /// is bound to it (whichever token is the subject: the server binds the client's tokens to
    /// that key); none for a bearer identity. A bound token without its key is never presented.
    static func proof(subject: TokenRefresh.Output, providerID: String) throws -> TokenClient.Proof {
        if let key = subject.proofKey { return .offered(key) }
        if CachedTokenAnswer.isDPoP(subject.tokenType) {
            throw AuthError.dpopKeyMissing(
                "the \(providerID) access token", signIn: "Sign in again: \(command: .login, "\(providerID)")")
        }
        return .none
    }

    /// The cached exchanged token under `key`, valid for `minimumTTL` more seconds.
    static func cached(_ tokens: TokenSet, key: String, uid: String, providerID: String, now: Date, minimumTTL: TimeInterval) -> Output? {
        guard let entry = tokens.derivedCredentials?[key], entry.isValid(at: now, minimumTTL: minimumTTL),
            case .exchangedToken(let exchanged) = entry.value
        else { return nil }
        var output = Output(
            uid: uid, providerID: providerID, token: exchanged.token, tokenType: exchanged.tokenType,
            issuedTokenType: exchanged.issuedTokenType, expiresAt: entry.expiresAt, scopes: exchanged.scopes ?? [], exchanged: false)
        output.proofKey = output.isDPoPBound ? tokens.proofKey : nil
        return output
    }

    /// Stores `credential` under `key` with the identity's tokens (expired entries dropped),
    /// under the keystore lock. An identity signed out meanwhile keeps nothing.
    static func store(
        _ credential: DerivedCredential, key: String, uid: String, providerID: String, keystore: any Keystore, now: Date
    ) async throws {
        try await keystore.update { state in
            guard let userIndex = state.userIndex(uid: uid),
                let identityIndex = state.users[userIndex].providerData.firstIndex(where: { $0.providerID == providerID }),
                let tokens = state.users[userIndex].providerData[identityIndex].tokens
            else { return }
            state.users[userIndex].providerData[identityIndex].tokens?.derivedCredentials = tokens.derived(
                setting: credential, at: key, now: now)
        }
    }

    /// The actor token, read now from where it is kept.
    func actorToken(_ source: ActorTokenSource) throws -> String {
        switch source {
        case .environment(let name):
            guard let value = try secrets.secretVariable(name, option: .actorTokenEnv)?.trimming(.whitespacesAndNewlines), !value.isEmpty
            else {
                throw AuthError.invalidArgument(
                    "the actor token comes from the environment variable \(name), which is not set or empty. Set it, or change \(input: .actorTokenEnv)"
                )
            }
            return value
        case .file(let path):
            do {
                return try secrets.federatedTokenFile(path)
            } catch let error as AuthError {
                throw AuthError.invalidArgument(
                    "the actor token file \(path) cannot be used: it must be a regular file of yours or root's that no one else may write, holding a token of at most 64 KiB (\(error.message.firstSentence)). Check \(input: .actorTokenFile)"
                )
            }
        }
    }

    /// A provider's refusal of the exchange, with the next step of RFC 8693 §2.2.2's errors.
    static func refused(_ error: AuthError, providerID: String) -> AuthError {
        let next: Message
        switch error.oauthError?.rawValue {
        case "invalid_target":
            next =
                "The provider does not issue tokens for that audience or resource (invalid_target). Check \(input: .audience) and \(input: .resource) against what the provider allows this client"
        case "unsupported_grant_type", "unauthorized_client":
            next =
                "The provider does not allow this client token exchange (RFC 8693). Enable the token-exchange grant for the client at the provider"
        case "invalid_grant":
            next =
                "The provider did not accept the subject token. Sign in again (\(command: .login, "\(providerID)")), or try the other token (\(input: .subjectTokenType))"
        case "invalid_request":
            next = "Check \(input: .requestedTokenType), \(input: .subjectTokenType) and the actor token"
        default:
            next = "Check the exchange's options against the provider's token-exchange policy"
        }
        return AuthError.invalidCredential(
            "the token exchange at \(providerID) was refused: \(error.message.firstSentence). \(next)", oauthError: error.oauthError,
            details: error.details)
    }
}
