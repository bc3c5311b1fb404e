/// `authctl token`: a valid token of the current user, refreshed first when it expires
/// within `minimumTTL`.
///
/// The hot path — a cached token that is still valid — reads the keystore once and does
/// nothing else: no lock, no network, no write. A refresh happens under the keystore lock,
/// after a re-read, so that when many processes need the same refresh, one does it and the
/// others use its result.
///
/// The user is resolved once — the current user when the command starts, or the `uid`
/// given — and the command finishes with that user, whatever another process does to the
/// current user meanwhile (`users use`): a refresh is stored with the user it belongs to.
///
/// With `scopes` (`token --scope`), the token asked for is one for other scopes (Microsoft:
/// another resource), obtained by a refresh-token grant that names them and cached in the
/// identity's `additionalTokens` under the scope set; the session's own access token stays,
/// and a rotated refresh token replaces the old one.
public struct TokenRefresh: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var idToken: Bool
        public var minimumTTL: TimeInterval
        public var forceRefresh: Bool
        /// Other scopes than the session's (empty: the session's access token).
        public var scopes: [String]
        /// The user whose token to give; nil: the current user (`exec` keeps the one it started with).
        public var uid: String?
        /// Why `uid` was chosen (`--user`, `AUTHCTL_USER`, a rule): errors name the user and it.
        public var chosenBy: UserChoiceReason?

        public init(
            providerID: ProviderID? = nil, idToken: Bool = false, minimumTTL: TimeInterval = 60, forceRefresh: Bool = false,
            scopes: [String] = [], uid: String? = nil, chosenBy: UserChoiceReason? = nil
        ) {
            self.uid = uid
            self.chosenBy = chosenBy
            self.providerID = providerID
            self.idToken = idToken
            self.minimumTTL = minimumTTL
            self.forceRefresh = forceRefresh
            self.scopes = scopes
        }

        /// The key of `scopes` in `TokenSet.additionalTokens`, nil without scopes.
        var scopeKey: String? { scopes.isEmpty ? nil : TokenSet.scopeKey(scopes) }
    }

    public struct Output: Sendable, Equatable {
        /// The user whose token this is.
        public var uid: String
        public var providerID: String
        public var tokenType: String
        /// The access token, or the ID token with `--id-token`.
        public var token: String
        public var isIDToken: Bool
        public var expiresAt: Date?
        public var scopes: [String]
        /// True when this call refreshed the token.
        public var refreshed: Bool
        /// Set when an early refresh (within `minimumTTL` of expiry) could not reach the
        /// provider and this is the token in hand, still valid until `expiresAt`: what failed.
        public var refreshFailure: AuthError? = nil
        /// The DPoP key an access token is bound to (`tokenType` `DPoP`): each request that
        /// presents it needs a proof made by this key (`proof(method:url:…)`). Never printed.
        public var proofKey: DPoPKey? = nil

        /// This output, when its token is a bearer token; a DPoP-bound one is refused, since
        /// `client` (exec's child, git, kubectl) can send only `Authorization: Bearer` and
        /// no proof (RFC 9449 §7).
        public func requireBearer(for client: String) throws -> Output {
            guard !isIDToken, proofKey != nil || CachedTokenAnswer.isDPoP(tokenType) else { return self }
            throw AuthError.invalidArgument(
                "the \(providerID) access token is bound to a DPoP key (RFC 9449): it is useless without a proof made for each request, and \(client) can send only bearer tokens. Use \(command: .token, .input(.format, "header"), .input(.method, "METHOD"), .input(.url, "URL")) for each request instead, or have the provider issue bearer tokens: \(command: .providersAdd, "\(providerID)", .input(.dpop, "never")) and sign in again"
            )
        }

        /// The DPoP proof of one request presenting this token (RFC 9449 §7: `ath` binds it to
        /// the token); nil for a bearer token.
        public func proof(method: String, url: URL, now: Date, random: any RandomSource) throws -> String? {
            guard let proofKey, !isIDToken else { return nil }
            return try proofKey.proof(method: method, url: url, now: now, jti: random.base64URL(bytes: 18), accessToken: token)
        }
    }

    let keystore: any Keystore
    let configStore: ConfigStore
    /// Refreshes and workload grants go through it.
    let tokens: TokenClient
    /// A Firebase user's session is refreshed at Google's secure token service (docs/firebase.md).
    let transport: any HTTPTransport
    let clock: any Clock
    /// `FIREBASE_AUTH_EMULATOR_HOST` as the environment gave it, for a Firebase user's
    /// refresh (docs/firebase.md); checked when used.
    public var firebaseEmulatorHost: String?

    /// - Parameters:
    ///   - tokens: refreshes and workload grants go through it.
    ///   - transport: a Firebase user's session is refreshed at Google's secure token service.
    public init(
        keystore: any Keystore, configStore: ConfigStore, tokens: TokenClient, transport: any HTTPTransport, clock: any Clock
    ) {
        self.keystore = keystore
        self.configStore = configStore
        self.tokens = tokens
        self.transport = transport
        self.clock = clock
    }

    /// The hot path alone, synchronous: the cached token that answers `input`, read from
    /// `keystore` without a lock, or nil when it must be refreshed (or `forceRefresh` asks
    /// it). It throws what `run` would throw before a refresh. `authctl token` calls it before
    /// it starts Swift concurrency (bench/README.md), and `run` begins with the same steps.
    public static func cachedOutput(_ input: Input, keystore: any Keystore, now: Date) throws -> Output? {
        try cached(input, keystore: keystore, now: now).output
    }

    /// `cachedOutput`, with the user and token set it looked at, which a refresh goes on with.
    static func cached(_ input: Input, keystore: any Keystore, now: Date) throws
        -> (output: Output?, user: User, providerID: String, tokens: TokenSet)
    {
        if input.idToken, !input.scopes.isEmpty {
            throw AuthError.invalidArgument(
                "\(input: .idToken) and \(input: .scope) exclude each other: \(input: .scope) asks for an access token for other scopes")
        }
        // The current user alone, no lock, no network.
        let user = try resolveUser(input, keystore: keystore)
        if let session = try firebaseSession(input, of: user) {
            let output = input.forceRefresh ? nil : firebaseOutput(session, uid: user.uid, input: input, now: now, refreshed: false)
            return (output, user, firebaseSessionID, session)
        }
        let (providerID, tokens) = try select(input, of: user)
        let output =
            input.forceRefresh ? nil : validOutput(tokens, uid: user.uid, providerID: providerID, input: input, now: now, refreshed: false)
        return (output, user, providerID, tokens)
    }

    public func run(_ input: Input) async throws -> Output {
        // The hot path: a cached token that is still valid.
        let (cached, user, providerID, tokens) = try Self.cached(input, keystore: keystore, now: clock.now())
        if let cached { return cached }
        if user.backend != nil, providerID == Self.firebaseSessionID { return try await refreshFirebase(input, user: user, seen: tokens) }
        if user.backend != nil, tokens.refreshToken == nil { throw Self.firebaseProviderTokenExpired(providerID) }
        let uid = user.uid
        // A workload has no refresh token: its grant runs again (TokenRefresh+Workload).
        let renew: (LinkedIdentity, TokenSet) async throws -> TokenSet
        if let client = user.identity(for: providerID)?.workload {
            renew = try workloadRenewal(client, of: user, providerID: providerID, input: input)
        } else {
            renew = try personRenewal(user: user, providerID: providerID, tokens: tokens, input: input)
        }
        let output: Output?
        do {
            output = try await refreshed(input, uid: uid, providerID: providerID, seen: tokens, renew: renew)
        } catch let error as AuthError where error.code == .networkRequestFailed && !input.forceRefresh {
            // The refresh came early (`minimumTTL`) and the provider is out of reach: the
            // token in hand still works until it expires, so it is given, with what failed.
            // Once it has expired, or when a new token was asked for, the failure stands.
            let now = clock.now()
            guard
                var stillValid = Self.validOutput(
                    tokens, uid: uid, providerID: providerID, input: input, now: now, refreshed: false, minimumTTLApplies: false)
            else { throw error }
            stillValid.refreshFailure = error
            return stillValid
        }
        guard let output else {
            throw AuthError.invalidCredential(
                "\(providerID) returned no valid \(input.idToken ? "ID token" : "access token") on refresh. Sign in again: \(command: .login, "\(providerID)")"
            )
        }
        return output
    }

    /// The refresh under the keystore lock, after a re-read; nil when the refreshed set lacks
    /// what was asked (it is stored all the same).
    func refreshed(
        _ input: Input, uid: String, providerID: String, seen tokens: TokenSet,
        renew: (LinkedIdentity, TokenSet) async throws -> TokenSet
    ) async throws -> Output? {
        try await keystore.update { state -> Result<Output?, AuthError> in
            // Re-read under the lock: another process may have refreshed meanwhile. The user is
            // the one resolved above, current or not by now.
            let (userIndex, identityIndex, current) = try Self.locate(uid: uid, providerID: providerID, in: state)
            let now = clock.now()
            if Self.asked(current, input) != Self.asked(tokens, input) {
                // Another process refreshed while this one waited for the lock: use its result
                // (even when --min-ttl asks more than the provider's lifetime), never refresh twice.
                if let output = Self.validOutput(
                    current, uid: uid, providerID: providerID, input: input, now: now, refreshed: false, minimumTTLApplies: false)
                {
                    return .success(output)
                }
            } else if !input.forceRefresh,
                let output = Self.validOutput(current, uid: uid, providerID: providerID, input: input, now: now, refreshed: false)
            {
                return .success(output)
            }
            let identity = state.users[userIndex].providerData[identityIndex]
            let refreshed: TokenSet
            do {
                refreshed = try await renew(identity, current)
            } catch let error as AuthError where Self.endsSession(error, input: input) && identity.workload == nil {
                // The provider refused the refresh token: the session has ended, and `status`
                // says so from now on (the one write of a failed refresh; the first refusal's time stays).
                // A workload's refused grant ends nothing: the next one reads its credential again
                // (a JWT-bearer grant's `invalid_grant` is about the token it presented), and the
                // keystore stays as it was.
                if current.needsSignInSince == nil { state.users[userIndex].providerData[identityIndex].tokens?.needsSignInSince = now }
                return .failure(error)
            }
            // Stored even when it lacks what was asked: a rotated refresh token must not be lost.
            state.users[userIndex].providerData[identityIndex].tokens = refreshed
            return .success(
                Self.validOutput(
                    refreshed, uid: uid, providerID: providerID, input: input, now: now, refreshed: true, minimumTTLApplies: false))
        }.get()
    }

    /// Whether a failed refresh of the session's own token says that the session has ended
    /// (`invalid_grant`: the refresh token is expired, revoked or unknown).
    static func endsSession(_ error: AuthError, input: Input) -> Bool {
        input.scopes.isEmpty && error.code == .invalidCredential && error.details["oauthError"] == .string("invalid_grant")
    }

    /// The refresh-token grant of a person's identity, after the checks that it can run.
    func personRenewal(user: User, providerID: String, tokens: TokenSet, input: Input) throws
        -> (LinkedIdentity, TokenSet) async throws -> TokenSet
    {
        if !input.idToken, tokens.accessToken == nil, tokens.refreshToken == nil {
            throw AuthError.invalidArgument(
                "the \(providerID) identity was signed in with an ID token alone (\(command: .login, .input(.idToken, nil))), so there is no access token. Print the ID token with: \(command: .token, .input(.idToken, nil)); or sign in through the browser: \(command: .login, "\(providerID)")"
            )
        }
        guard tokens.refreshToken != nil else {
            throw AuthError.invalidCredential(
                input.scopes.isEmpty
                    ? "the \(providerID) token has expired and there is no refresh token. Sign in again: \(command: .login, "\(providerID)")"
                    : "a token for other scopes needs a refresh token, and the \(providerID) session has none. Sign in again with a scope that grants one (for Microsoft, offline_access): \(command: .login, "\(providerID)")"
            )
        }
        guard let identity = user.identity(for: providerID) else { throw AuthError.noCurrentUser }
        let provider = try configStore.identityProvider(ProviderID(parsing: providerID)).provider(forSessionOf: identity)
        return { identity, current in try await refresh(identity, tokens: current, provider: provider, scopes: input.scopes) }
    }

    /// The user to serve, read once: the current user (the hot path reads it alone), or the
    /// one `input.uid` names.
    static func resolveUser(_ input: Input, keystore: any Keystore) throws -> User {
        guard let uid = input.uid else {
            guard let user = try keystore.readCurrentUser().currentUser else {
                throw AuthError.noCurrentUser(signInWith: input.providerID?.rawValue)
            }
            return user
        }
        // That user alone, as the current one is read (a rule's user, docs/identities.md).
        guard let user = try keystore.readUser(uid: uid).users.first(where: { $0.uid == uid }) else { throw AuthError.userRemoved(uid) }
        return user
    }

    /// Where the resolved user's tokens are in a state re-read under the lock. A user removed,
    /// unlinked or signed out meanwhile (by another process) is said so, not `no-current-user`.
    static func locate(uid: String, providerID: String, in state: AccountState) throws -> (Int, Int, TokenSet) {
        guard let userIndex = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
        guard let identityIndex = state.users[userIndex].providerData.firstIndex(where: { $0.providerID == providerID }),
            let tokens = state.users[userIndex].providerData[identityIndex].tokens
        else {
            throw AuthError.invalidCredential(
                "the \(providerID) session of the user \(uid) was ended by another command (\(command: .signOut) or \(command: .unlink, "\(providerID)")) while this one ran. Sign in again: \(command: .login, "\(providerID)")"
            )
        }
        return (userIndex, identityIndex, tokens)
    }

    /// The token set asked for: the given provider, or the one of the last sign-in.
    static func select(_ input: Input, of user: User) throws -> (String, TokenSet) {
        let providerID = CachedTokenAnswer.chosenProvider(
            asked: input.providerID?.rawValue, last: user.lastProviderID, first: user.providerData.first?.providerID)
        guard let identity = user.identity(for: providerID) else {
            throw AuthError.noSuchProvider(
                message:
                    "\(Message.subject(user, chosenBy: input.chosenBy)) has no \(providerID) identity (linked: \(user.providerData.map(\.providerID).joined(separator: ", "))). \(Message.linkNextStep(providerID, chosenBy: input.chosenBy))"
            )
        }
        guard let tokens = identity.tokens else {
            // The user is signed in, but not with this identity (an imported user, a session
            // that ended for this provider alone): "nobody is signed in" would be untrue.
            throw AuthError.invalidCredential(
                "\(Message.subject(user, chosenBy: input.chosenBy, namingCurrent: true)) is signed out of \(providerID). Sign in to it again: \(command: .reauthenticate, "\(providerID)")"
            )
        }
        return (providerID, tokens)
    }

    /// The part of a token set that answers `input`: with scopes, their cached token only
    /// (a refresh of the session's token or of other scopes leaves it as it was).
    static func asked(_ tokens: TokenSet, _ input: Input) -> TokenSet {
        guard let key = input.scopeKey else {
            var session = tokens
            session.additionalTokens = nil
            session.derivedCredentials = nil
            return session
        }
        let scoped = tokens.additionalTokens?[key]
        return TokenSet(
            accessToken: scoped?.accessToken ?? "", tokenType: scoped?.tokenType ?? "", expiresAt: scoped?.expiresAt, refreshToken: nil,
            idToken: nil, scopes: scoped?.scopes ?? [])
    }

    static func validOutput(
        _ tokens: TokenSet, uid: String, providerID: String, input: Input, now: Date, refreshed: Bool, minimumTTLApplies: Bool = true
    ) -> Output? {
        let ttl = minimumTTLApplies ? input.minimumTTL : 0
        if let key = input.scopeKey {
            guard let scoped = tokens.additionalTokens?[key], scoped.isValid(at: now, minimumTTL: ttl) else { return nil }
            var output = Output(
                uid: uid, providerID: providerID, tokenType: scoped.tokenType, token: scoped.accessToken, isIDToken: false,
                expiresAt: scoped.expiresAt, scopes: scoped.scopes, refreshed: refreshed)
            if CachedTokenAnswer.isDPoP(scoped.tokenType) { output.proofKey = tokens.proofKey }
            return output
        }
        if input.idToken {
            guard let idToken = tokens.idToken else { return nil }
            let expiresAt = IDTokenClaims.unverifiedExpiry(of: idToken)
            guard TokenSet.isValid(expiresAt: expiresAt, at: now, minimumTTL: ttl) else { return nil }
            return Output(
                uid: uid, providerID: providerID, tokenType: "Bearer", token: idToken, isIDToken: true, expiresAt: expiresAt,
                scopes: tokens.scopes, refreshed: refreshed)
        }
        guard let accessToken = tokens.accessToken, tokens.isValid(at: now, minimumTTL: ttl) else { return nil }
        var output = Output(
            uid: uid, providerID: providerID, tokenType: tokens.tokenType, token: accessToken, isIDToken: false,
            expiresAt: tokens.expiresAt, scopes: tokens.scopes, refreshed: refreshed)
        output.proofKey = tokens.isDPoPBound ? tokens.proofKey : nil
        return output
    }

    /// One refresh-token grant (RFC 6749 §6). A rotated refresh token replaces the old one;
    /// a missing one keeps it. A new ID token must keep `iss`, `sub` and `aud` (OIDC Core §12.2).
    /// With `scopes`, the grant asks for them (RFC 6749 §6 `scope`; Microsoft: another
    /// resource) and the access token it yields goes to `additionalTokens`, the session's
    /// own access token staying as it was.
    func refresh(_ identity: LinkedIdentity, tokens current: TokenSet, provider: any IdentityProvider, scopes: [String] = [])
        async throws -> TokenSet
    {
        guard let refreshToken = current.refreshToken, provider.clientID != nil else {
            throw AuthError.invalidCredential(
                "the \(identity.providerID) token cannot be refreshed. Sign in again: \(command: .login, "\(identity.providerID)")")
        }
        // A DPoP-bound session refreshes with a proof of its key, and its new tokens must be
        // bound to the same key (RFC 9449 §5): never a fall back to bearer tokens.
        guard let proof = current.refreshProof else {
            throw AuthError.dpopKeyMissing(
                "the \(identity.providerID) session", signIn: "Sign in again: \(command: .login, "\(identity.providerID)")")
        }
        let discovery = try await tokens.discovery(for: provider)
        let binding = SecretBinding.refreshing(identity, current: current, provider: provider, discovery: discovery)
        let issued: TokenClient.Issued
        do {
            issued = try await tokens.requestTokens(
                .refreshToken(refreshToken, scopes: provider.refreshScopes(session: current, asked: scopes)), provider: provider,
                discovery: discovery, idToken: .init(nonce: nil), proof: proof, binding: binding)
        } catch let error as AuthError where error.oauthError == .invalidGrant && scopes.isEmpty {
            throw AuthError.invalidCredential(
                "\(identity.providerID) no longer accepts the refresh token (invalid_grant): the session has ended — it was revoked or expired, or, where refresh tokens are used once, it was used already (an authctl stopped after the provider answered and before it stored the new one loses it: docs/keystore.md). Sign in again: \(command: .login, "\(identity.providerID)")",
                oauthError: .invalidGrant, details: error.details)
        } catch let error as AuthError where error.oauthError == .invalidScope && scopes.isEmpty {
            // The session's refresh named the session's scopes (`refreshScopes`): the provider
            // narrowed the refresh token it rotated on a `token --scope` refresh.
            throw AuthError.invalidCredential(
                "\(identity.providerID) no longer grants the session's scopes (\(Sanitize.text(current.scopes.joined(separator: " "), limit: 200))) with its refresh token (invalid_scope): it narrowed the refresh token when a token for other scopes was asked. Sign in again: \(command: .login, "\(identity.providerID)")",
                oauthError: .invalidScope, details: error.details)
        }
        let response = issued.response
        var idToken = current.idToken
        if let newIDToken = response.idToken, let claims = issued.idTokenClaims {
            // OpenID Connect Core 12.2: the same issuer, subject and audience as the session's.
            let previous = current.idToken.flatMap(IDTokenClaims.unverifiedParts(of:)).map { IDTokenClaims(raw: $0.payload) }
            guard claims.issuer == identity.issuer,
                try provider.federatedID(from: claims) == identity.federatedID,
                previous.map({ $0.subject == claims.subject && Set($0.audiences) == Set(claims.audiences) }) ?? true
            else {
                throw AuthError.invalidCredential(
                    "the refreshed ID token from \(identity.providerID) names another user, issuer or audience; nothing was stored. Sign in again: \(command: .login, "\(identity.providerID)")"
                )
            }
            idToken = newIDToken
        }
        let now = clock.now()
        var refreshed = current
        refreshed.refreshToken = response.refreshToken ?? refreshToken
        refreshed.idToken = idToken
        refreshed.needsSignInSince = nil
        refreshed.egress = binding
        refreshed.store(
            accessToken: response.accessToken, tokenType: response.tokenType,
            expiresAt: response.expiresIn.map { now.addingTimeInterval($0) },
            granted: response.scopes, for: scopes)
        return refreshed
    }
}
