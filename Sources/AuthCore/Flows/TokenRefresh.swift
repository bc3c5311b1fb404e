import Foundation

/// `authctl token`: a valid token of the current user, refreshed first when it expires
/// within `minimumTTL`.
///
/// The hot path — a cached token that is still valid — reads the keystore once and does
/// nothing else: no lock, no network, no write. A refresh happens under the keystore lock,
/// after a re-read, so that when many processes need the same refresh, one does it and the
/// others use its result.
public struct TokenRefresh: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var idToken: Bool
        public var minimumTTL: TimeInterval
        public var forceRefresh: Bool

        public init(providerID: ProviderID? = nil, idToken: Bool = false, minimumTTL: TimeInterval = 60, forceRefresh: Bool = false) {
            self.providerID = providerID
            self.idToken = idToken
            self.minimumTTL = minimumTTL
            self.forceRefresh = forceRefresh
        }
    }

    public struct Output: Sendable, Equatable {
        public var providerID: String
        public var tokenType: String
        /// The access token, or the ID token with `--id-token`.
        public var token: String
        public var isIDToken: Bool
        public var expiresAt: Date?
        public var scopes: [String]
        /// True when this call refreshed the token.
        public var refreshed: Bool
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> Output {
        let state = try environment.keystore.read()
        let (providerID, tokens) = try Self.select(input, in: state)
        let now = environment.clock.now()
        if !input.forceRefresh, let output = Self.validOutput(tokens, providerID: providerID, input: input, now: now, refreshed: false) {
            return output
        }
        if !input.idToken, tokens.accessToken == nil, tokens.refreshToken == nil {
            throw AuthError.invalidArgument(
                "the \(providerID) identity was signed in with an ID token alone (login --id-token), so there is no access token. Print the ID token with: authctl token --id-token; or sign in through the browser: authctl login \(providerID)"
            )
        }
        guard tokens.refreshToken != nil else {
            throw AuthError.invalidCredential(
                "the \(providerID) token has expired and there is no refresh token. Sign in again: authctl login \(providerID)")
        }
        let provider = try environment.provider(ProviderID(parsing: providerID))
        let uid = state.currentUID
        let output: Output? = try await environment.keystore.update { state in
            // Re-read under the lock: another process may have refreshed meanwhile.
            guard state.currentUID == uid, let userIndex = uid.flatMap(state.userIndex(uid:)),
                let identityIndex = state.users[userIndex].providerData.firstIndex(where: { $0.providerID == providerID }),
                let current = state.users[userIndex].providerData[identityIndex].tokens
            else { throw AuthError.noCurrentUser }
            let now = environment.clock.now()
            if current != tokens {
                // Another process refreshed while this one waited for the lock: use its result
                // (even when --min-ttl asks more than the provider's lifetime), never refresh twice.
                if let output = Self.validOutput(
                    current, providerID: providerID, input: input, now: now, refreshed: false, minimumTTLApplies: false)
                {
                    return output
                }
            } else if !input.forceRefresh,
                let output = Self.validOutput(current, providerID: providerID, input: input, now: now, refreshed: false)
            {
                return output
            }
            let identity = state.users[userIndex].providerData[identityIndex]
            let refreshed = try await refresh(identity, tokens: current, provider: provider)
            // Stored even when it lacks what was asked: a rotated refresh token must not be lost.
            state.users[userIndex].providerData[identityIndex].tokens = refreshed
            return Self.validOutput(refreshed, providerID: providerID, input: input, now: now, refreshed: true, minimumTTLApplies: false)
        }
        guard let output else {
            throw AuthError.invalidCredential(
                "\(providerID) returned no valid \(input.idToken ? "ID token" : "access token") on refresh. Sign in again: authctl login \(providerID)"
            )
        }
        return output
    }

    /// The token set asked for: the given provider, or the one of the last sign-in.
    static func select(_ input: Input, in state: AccountState) throws -> (String, TokenSet) {
        guard let user = state.currentUser else { throw AuthError.noCurrentUser }
        let providerID = input.providerID?.rawValue ?? user.lastProviderID ?? user.providerData.first?.providerID ?? ""
        guard let identity = user.identity(for: providerID) else {
            throw AuthError(
                .noSuchProvider,
                "the current user has no \(providerID) identity. Linked: \(user.providerData.map(\.providerID).joined(separator: ", "))")
        }
        guard let tokens = identity.tokens else { throw AuthError.noCurrentUser }
        return (providerID, tokens)
    }

    static func validOutput(
        _ tokens: TokenSet, providerID: String, input: Input, now: Date, refreshed: Bool, minimumTTLApplies: Bool = true
    ) -> Output? {
        let ttl = minimumTTLApplies ? input.minimumTTL : 0
        if input.idToken {
            guard let idToken = tokens.idToken else { return nil }
            let expiresAt = IDTokenClaims.unverifiedParts(of: idToken).flatMap { IDTokenClaims(raw: $0.payload).expiresAt }
            if let expiresAt, expiresAt.timeIntervalSince(now) <= ttl { return nil }
            return Output(
                providerID: providerID, tokenType: "Bearer", token: idToken, isIDToken: true, expiresAt: expiresAt,
                scopes: tokens.scopes, refreshed: refreshed)
        }
        guard let accessToken = tokens.accessToken, tokens.isValid(at: now, minimumTTL: ttl) else { return nil }
        return Output(
            providerID: providerID, tokenType: tokens.tokenType, token: accessToken, isIDToken: false,
            expiresAt: tokens.expiresAt, scopes: tokens.scopes, refreshed: refreshed)
    }

    /// One refresh-token grant (RFC 6749 §6). A rotated refresh token replaces the old one;
    /// a missing one keeps it. A new ID token must keep `iss`, `sub` and `aud` (OIDC Core §12.2).
    func refresh(_ identity: LinkedIdentity, tokens: TokenSet, provider: any IdentityProvider) async throws -> TokenSet {
        guard let refreshToken = tokens.refreshToken, let clientID = provider.clientID else {
            throw AuthError.invalidCredential(
                "the \(identity.providerID) token cannot be refreshed. Sign in again: authctl login \(identity.providerID)")
        }
        let metadata = ProviderMetadata(environment: environment)
        let discovery = try await metadata.discovery(for: provider)
        let request = TokenRequest(
            tokenEndpoint: discovery.tokenEndpoint, clientID: clientID, grant: .refreshToken(refreshToken, scopes: nil),
            authentication: ClientCredentials.method(
                try ClientCredentials.resolve(provider.config, secrets: environment.secrets),
                supported: discovery.tokenEndpointAuthMethodsSupported))
        let response: TokenResponse
        do {
            response = try TokenResponse.parse(
                try await environment.transport.send(request.httpRequest), host: discovery.tokenEndpoint.host ?? "the provider")
        } catch let error as AuthError where error.details["oauthError"] == .string("invalid_grant") {
            throw AuthError(
                .invalidCredential,
                "\(identity.providerID) no longer accepts the refresh token (invalid_grant): the session has ended. Sign in again: authctl login \(identity.providerID)",
                details: error.details)
        }
        var idToken = tokens.idToken
        if let newIDToken = response.idToken {
            let claims = try await IDTokenVerification(environment: environment, metadata: metadata)
                .validate(newIDToken, provider: provider, discovery: discovery, clientID: clientID, nonce: nil)
            let previous = tokens.idToken.flatMap(IDTokenClaims.unverifiedParts(of:)).map { IDTokenClaims(raw: $0.payload) }
            guard claims.issuer == identity.issuer,
                try provider.federatedID(from: claims) == identity.federatedID,
                previous.map({ $0.subject == claims.subject && Set($0.audiences) == Set(claims.audiences) }) ?? true
            else {
                throw AuthError.invalidCredential(
                    "the refreshed ID token from \(identity.providerID) names another user, issuer or audience; nothing was stored. Sign in again: authctl login \(identity.providerID)"
                )
            }
            idToken = newIDToken
        }
        let now = environment.clock.now()
        return TokenSet(
            accessToken: response.accessToken, tokenType: response.tokenType,
            expiresAt: response.expiresIn.map { now.addingTimeInterval($0) },
            refreshToken: response.refreshToken ?? refreshToken, idToken: idToken,
            scopes: response.scopes ?? tokens.scopes)
    }
}
