/// The access token of the current user's grant for a resource (`authctl token --resource
/// URL`, `authctl request`; docs/resources.md): the grant whose resource covers the URL
/// (the longest match), refreshed with its `resource` (RFC 8707) through the token client,
/// under the keystore lock, when it expires within `minimumTTL` or when asked. The client is
/// the grant's own provider, used only at the issuer the grant names.
public struct ResourceTokens: Sendable {
    let keystore: any Keystore
    let configStore: ConfigStore
    let tokens: TokenClient
    let clock: any Clock
    /// Renews a grant of `login URL --via` (identity chaining) by running its chain again.
    let chain: ResourceChain?

    public init(keystore: any Keystore, configStore: ConfigStore, tokens: TokenClient, clock: any Clock, chain: ResourceChain? = nil) {
        self.keystore = keystore
        self.configStore = configStore
        self.tokens = tokens
        self.clock = clock
        self.chain = chain
    }

    public struct Output: Sendable, Equatable {
        public var uid: String
        public var grant: ResourceGrant
        public var accessToken: String
        public var tokenType: String
        public var expiresAt: Date?
        public var scopes: [String]
        public var refreshed: Bool
        /// The DPoP key the token is bound to (RFC 9449); each request presenting it needs a proof.
        public var proofKey: DPoPKey? = nil

        /// As `authctl token` prints any token (every `--format`).
        public var asTokenOutput: TokenRefresh.Output {
            var output = TokenRefresh.Output(
                uid: uid, providerID: grant.providerID, tokenType: tokenType, token: accessToken, isIDToken: false, expiresAt: expiresAt,
                scopes: scopes, refreshed: refreshed)
            output.proofKey = proofKey
            return output
        }
    }

    /// The token for a request to `url`, of the user `uid` (chosen for `chosenBy`), else of the
    /// current user; a JWT whose `aud` does not name the grant's resource is refused
    /// (`ResourceAudience`), here for `token --resource` and again where `request` sends it.
    public func token(
        for url: URL, minimumTTL: TimeInterval = 60, forceRefresh: Bool = false, uid: String? = nil, chosenBy: UserChoiceReason? = nil
    ) async throws -> Output {
        let output = try await grantToken(for: url, minimumTTL: minimumTTL, forceRefresh: forceRefresh, uid: uid, chosenBy: chosenBy)
        try ResourceAudience.check(output.accessToken, for: output.grant)
        return output
    }

    private func grantToken(
        for url: URL, minimumTTL: TimeInterval, forceRefresh: Bool, uid: String?, chosenBy: UserChoiceReason?
    ) async throws -> Output {
        // The user alone, as `token` reads it (`TokenRefresh.resolveUser`): the cached answer
        // costs no other record, and reads what the token front reads (docs/front.md).
        let state = try uid.map { try keystore.readUser(uid: $0) } ?? keystore.readCurrentUser()
        if let uid, state.userIndex(uid: uid) == nil { throw AuthError.userRemoved(uid) }
        guard let user = uid.flatMap({ uid in state.users.first { $0.uid == uid } }) ?? state.currentUser else {
            throw AuthError.noCurrentUser(
                message: "nobody is signed in. Sign in to the resource first: \(command: .login, "\(url.absoluteString)")")
        }
        guard let grant = user.resourceGrant(for: url) else {
            throw AuthError.noSuchProvider(
                message:
                    "\(Message.subject(user, chosenBy: chosenBy)) holds no token for \(Sanitize.text(ResourceIdentifier.origin(of: url) + url.path, limit: 200)). Sign in to it: \(command: .login, "\(url.absoluteString)")"
            )
        }
        let now = clock.now()
        if !forceRefresh, let output = Self.output(user.uid, grant, now: now, minimumTTL: minimumTTL, refreshed: false) { return output }
        // A chained grant without a refresh token: the chain runs again, outside the keystore
        // lock (the exchange refreshes the identity's token under it), then the grant is replaced.
        if grant.viaProviderID != nil, grant.tokens?.refreshToken == nil {
            return try await rechain(grant, uid: user.uid)
        }
        return try await keystore.update { state in
            guard let userIndex = state.userIndex(uid: user.uid) else { throw AuthError.userRemoved(user.uid) }
            guard
                let index = state.users[userIndex].resourceGrants.firstIndex(where: {
                    $0.matches(resource: grant.resource, issuer: grant.issuer)
                })
            else {
                throw AuthError.noSuchProvider(
                    message: "the grant for \(grant.resource) was removed meanwhile. Sign in again: \(command: .login, "\(grant.resource)")"
                )
            }
            let current = state.users[userIndex].resourceGrants[index]
            // Another process may have refreshed it while this one waited for the lock.
            if !forceRefresh, let output = Self.output(user.uid, current, now: clock.now(), minimumTTL: minimumTTL, refreshed: false) {
                return output
            }
            // A workload's grant (`login URL --client-credentials`) runs again: it has no refresh token.
            let workload = state.users[userIndex].providerData.first { $0.providerID == current.providerID }?.workload
            let refreshed: TokenSet
            if let workload {
                refreshed = try await renew(current, as: workload)
                state.users[userIndex].resourceGrants[index].tokens = refreshed
            } else {
                refreshed = try await refreshSharing(&state.users[userIndex], at: index)
            }
            var updated = current
            updated.tokens = refreshed
            guard let output = Self.output(user.uid, updated, now: clock.now(), minimumTTL: nil, refreshed: true) else {
                throw AuthError.invalidCredential(
                    "the refreshed token for \(grant.resource) is unusable. Sign in again: \(command: .login, "\(grant.resource)")")
            }
            return output
        }
    }

    /// `grant` (of `login URL --via`) renewed by its chain (`ResourceChain.renew`) and stored.
    func rechain(_ grant: ResourceGrant, uid: String) async throws -> Output {
        guard let chain else { throw AuthError.internalError("a chained grant's renewal without its chain") }
        let renewed = try await chain.renew(grant, uid: uid)
        return try await keystore.update { state in
            guard let userIndex = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
            guard
                let index = state.users[userIndex].resourceGrants.firstIndex(where: {
                    $0.matches(resource: grant.resource, issuer: grant.issuer)
                })
            else {
                throw AuthError.noSuchProvider(
                    message: "the grant for \(grant.resource) was removed meanwhile. Sign in again: \(command: .login, "\(grant.resource)")"
                )
            }
            state.users[userIndex].resourceGrants[index].tokens = renewed
            var updated = state.users[userIndex].resourceGrants[index]
            updated.tokens = renewed
            guard let output = Self.output(uid, updated, now: clock.now(), minimumTTL: nil, refreshed: true) else {
                throw AuthError.invalidCredential(
                    "the renewed token for \(grant.resource) is unusable. Sign in again: \(command: .login, "\(grant.resource)")")
            }
            return output
        }
    }

    /// The grant's token, if it is still valid `minimumTTL` from `now` (nil: just issued, taken as it is).
    static func output(_ uid: String, _ grant: ResourceGrant, now: Date, minimumTTL: TimeInterval?, refreshed: Bool) -> Output? {
        guard let tokens = grant.tokens, let accessToken = tokens.accessToken, tokens.needsSignInSince == nil,
            minimumTTL.map({ tokens.isValid(at: now, minimumTTL: $0) }) ?? true
        else { return nil }
        var output = Output(
            uid: uid, grant: grant, accessToken: accessToken, tokenType: tokens.tokenType, expiresAt: tokens.expiresAt,
            scopes: tokens.scopes, refreshed: refreshed)
        output.proofKey = tokens.isDPoPBound ? tokens.proofKey : nil
        return output
    }

    /// A workload's grant for the resource, run again as at its sign-in: the same client, issuer,
    /// binding and DPoP key (docs/resources.md, "Machines and CI").
    func renew(_ grant: ResourceGrant, as client: WorkloadClient) async throws -> TokenSet {
        guard let current = grant.tokens else {
            // No `resource` detail: `request` must not answer a workload's failure with a person's sign-in.
            throw AuthError.invalidCredential(
                "the workload signed out of \(grant.resource). Sign it in again: \(command: .login, "\(grant.resource)", .input(client.grantInput, nil))"
            )
        }
        guard let proof = current.refreshProof else {
            throw AuthError.dpopKeyMissing(
                "the workload's token for \(grant.resource)",
                signIn: "Sign the workload in again: \(command: .login, "\(grant.resource)", .input(client.grantInput, nil))")
        }
        let config = try configStore.provider(try ProviderID(parsing: grant.providerID))
        let provider = try WorkloadGrant.provider(config, for: client)
        let result = try await WorkloadGrant(tokens: tokens, clock: clock).run(
            client, provider: provider, issuer: grant.issuer, proof: proof, binding: current.egress ?? grant.binding,
            resource: URL(string: grant.resource))
        var renewed = result.tokens
        renewed.proofKey = current.proofKey
        renewed.egress = current.egress
        return renewed
    }

    /// What an error of a renewal says of its grant (`--json`'s details): the resource, and the
    /// scopes the grant held, which a new sign-in asks for again (`request`: a step-up's too).
    static func renewalDetails(_ grant: ResourceGrant) -> [String: JSONValue] {
        [
            "resource": .string(grant.resource), "scopes": .array((grant.tokens?.scopes ?? []).map(JSONValue.string)),
            "issuer": .string(grant.issuer),
        ]
    }

    /// The grant at `index` refreshed with the refresh token of its sign-in, and every grant of
    /// that sign-in given the answer (docs/resources.md, "Several resources, one sign-in"): the
    /// refresh token lives in the grant that holds it, which the others name, and the request
    /// names every resource of the sign-in, so that a server that rotates refresh tokens (and
    /// revokes the access token issued with the old one) strands none. Its tokens are returned.
    func refreshSharing(_ user: inout User, at index: Int) async throws -> TokenSet {
        let grant = user.resourceGrants[index]
        guard grant.tokens != nil else { return try await refresh(grant) }  // signed out: refused as ever
        guard let family = user.refreshFamily(of: grant) else {
            throw AuthError.invalidCredential(
                "the token for \(grant.resource) has expired, and the grant that held the refresh token of its sign-in (\(Sanitize.text(grant.refreshTokenOf ?? "", limit: 200))) is gone. Sign in again: \(command: .login, "\(grant.resource)")",
                details: Self.renewalDetails(grant))
        }
        let holder = user.resourceGrants[family[0]]
        let others = family.dropFirst().compactMap { URL(string: user.resourceGrants[$0].resource) }
        let refreshed = try await refresh(holder, moreResources: others, for: grant)
        for member in family {
            guard member != family[0] else {
                user.resourceGrants[member].tokens = refreshed
                continue
            }
            // A grant signed out stays so.
            guard var tokens = user.resourceGrants[member].tokens else { continue }
            tokens.accessToken = refreshed.accessToken
            tokens.tokenType = refreshed.tokenType
            tokens.expiresAt = refreshed.expiresAt
            tokens.scopes = refreshed.scopes
            tokens.needsSignInSince = nil
            tokens.refreshToken = nil
            user.resourceGrants[member].tokens = tokens
        }
        return user.resourceGrants[index].tokens ?? refreshed  // present: checked above
    }

    /// One refresh-token grant with `resource` (RFC 8707 §2.2), and `moreResources` after it; for
    /// `asked`, a grant that names this one's refresh token, when it is not `grant` itself.
    func refresh(_ grant: ResourceGrant, moreResources: [URL] = [], for asked: ResourceGrant? = nil) async throws -> TokenSet {
        // Errors name the grant asked for (`request` signs in again to that resource).
        let named = asked ?? grant
        guard let current = grant.tokens, let refreshToken = current.refreshToken else {
            throw AuthError.invalidCredential(
                "the token for \(named.resource) has expired and cannot be refreshed. Sign in again: \(command: .login, "\(named.resource)")",
                details: Self.renewalDetails(named))
        }
        let config = try configStore.provider(try ProviderID(parsing: grant.providerID))
        // A client is used only at the issuer it was configured or registered for.
        guard config.issuer == grant.issuer else {
            throw AuthError.notConfigured(
                "the provider \(grant.providerID) now names another issuer than the one that issued the token for \(named.resource); authctl will not send its refresh token there. Sign in again: \(command: .login, "\(named.resource)")"
            )
        }
        // A registered secret that expired: nothing is sent; a new sign-in registers again.
        if config.registeredSecretExpired(at: clock.now()) {
            throw AuthError.invalidCredential(
                "the client secret that \(Sanitize.text(grant.issuer, limit: 100)) issued to \(grant.providerID) has expired, so the token for \(named.resource) was not refreshed. Sign in again, which registers authctl anew: \(command: .login, "\(named.resource)")",
                details: Self.renewalDetails(named))
        }
        // A DPoP-bound grant refreshes with a proof of its key; its new tokens are bound to it too.
        guard let proof = current.refreshProof else {
            throw AuthError.dpopKeyMissing(
                "the token for \(named.resource)", signIn: "Sign in again: \(command: .login, "\(named.resource)")")
        }
        let provider = try ProviderRegistry.provider(for: config)
        let discovery = try await tokens.discovery(for: provider)
        let issued: TokenClient.Issued
        do {
            issued = try await tokens.requestTokens(
                .refreshToken(refreshToken, scopes: nil), provider: provider, discovery: discovery, idToken: nil, proof: proof,
                resource: URL(string: grant.resource), moreResources: moreResources, binding: grant.binding)
        } catch let error as AuthError where error.oauthError == .invalidGrant {
            throw AuthError.invalidCredential(
                "\(grant.providerID) no longer accepts the refresh token for \(named.resource) (invalid_grant). Sign in again: \(command: .login, "\(named.resource)")",
                oauthError: .invalidGrant, details: error.details.merging(Self.renewalDetails(named)) { $1 })
        } catch let error as AuthError where error.oauthError == .invalidClient && config.registeredDynamically {
            // The server no longer knows the client authctl registered: the next sign-in registers again.
            try await configStore.update { file in
                if file.providers[config.id]?.clientID == config.clientID {
                    file.providers[config.id]?.clientRefusedAt = Int(clock.now().timeIntervalSince1970)
                }
            }
            throw AuthError.invalidCredential(
                "\(Sanitize.text(grant.issuer, limit: 100)) no longer knows the client authctl registered as \(grant.providerID) (invalid_client; a server that restarted forgets its registrations). Sign in again, which registers authctl anew: \(command: .login, "\(named.resource)")",
                oauthError: .invalidClient, details: error.details.merging(Self.renewalDetails(named)) { $1 })
        }
        let response = issued.response
        var refreshed = current
        refreshed.accessToken = response.accessToken
        refreshed.tokenType = response.tokenType
        refreshed.expiresAt = response.expiresIn.map { clock.now().addingTimeInterval($0) }
        refreshed.refreshToken = response.refreshToken ?? refreshToken
        if let scopes = response.scopes { refreshed.scopes = scopes }
        refreshed.needsSignInSince = nil
        return refreshed
    }
}
