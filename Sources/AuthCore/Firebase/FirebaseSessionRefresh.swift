/// The Firebase session of a user kept valid (docs/firebase.md): its ID token refreshed through
/// securetoken when it expires within the asked margin — under the keystore lock, after a
/// re-read, so that when many processes need it at once one refreshes and the others use
/// its result (as `TokenRefresh` does for a provider's tokens). When the project has ended
/// the session (`user-token-expired`), the user's tokens are dropped and the record kept.
public struct FirebaseSessionRefresh: Sendable {
    let client: FirebaseAuthClient
    let keystore: any Keystore
    let clock: any Clock

    public init(client: FirebaseAuthClient, keystore: any Keystore, clock: any Clock) {
        self.client = client
        self.keystore = keystore
        self.clock = clock
    }

    /// The session of `uid`, valid for more than `minimumTTL` seconds (unless `force` asks a
    /// refresh anyway); `refreshed` when this call refreshed it.
    public func session(uid: String, minimumTTL: TimeInterval, force: Bool, seen: TokenSet?) async throws
        -> (tokens: TokenSet, refreshed: Bool)
    {
        let started = clock.now()
        let outcome: Result<(TokenSet, Bool), AuthError> = try await keystore.update { state in
            guard let index = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
            let user = state.users[index]
            guard let backend = user.backend else { throw AuthError.internalError("the user \(uid) is not a Firebase user") }
            try FirebaseSignIn.checkServed(user, by: client)
            guard let current = backend.session, let refreshToken = current.refreshToken else {
                throw AuthError.userTokenExpired(
                    "the Firebase session of \(user.email ?? uid) has ended. Sign in again: \(command: .login, .value(user.lastProviderID ?? "PROVIDER"))"
                )
            }
            let now = clock.now()
            // Another process refreshed while this one waited for the lock: use its result. A
            // refresh within the same second can give the very same token (Firebase ID tokens
            // carry no unique claim), so a token issued since this call began (to the second)
            // counts as that result too: no refresh could give a fresher one.
            if let seen, current != seen, current.isValid(at: now, minimumTTL: 0) { return .success((current, false)) }
            if !force, current.isValid(at: now, minimumTTL: 0), let issued = Self.issuedAt(current.idToken),
                issued >= started.timeIntervalSince1970.rounded(.down) - 1
            {
                return .success((current, false))
            }
            if !force, current.isValid(at: now, minimumTTL: minimumTTL) { return .success((current, false)) }
            do {
                let session = try await client.refresh(refreshToken, localID: uid)
                let tokens = TokenSet(
                    accessToken: nil, expiresAt: session.expiresAt, refreshToken: session.refreshToken, idToken: session.idToken, scopes: []
                )
                state.users[index].backend?.session = tokens
                return .success((tokens, true))
            } catch let error as AuthError where error.code == .userTokenExpired {
                // docs/firebase.md: the session ended; the tokens go, the record stays.
                state.users[index].backend?.session = nil
                for identity in state.users[index].providerData.indices { state.users[index].providerData[identity].tokens = nil }
                if state.currentUID == uid { state.currentUID = nil }
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The `iat` of a Firebase ID token, when it is a number.
    static func issuedAt(_ token: String?) -> Double? {
        token.flatMap(IDTokenClaims.unverifiedParts(of:)).flatMap { $0.payload["iat"]?.numberValue }.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A Firebase ID token of `uid` valid for at least a minute (link, unlink, delete need
    /// one); with `refreshed`, one just issued, whose `auth_time` is the project's own.
    public func freshIDToken(uid: String, refreshed: Bool = false) async throws -> String {
        let state = try keystore.read()
        let seen = state.users.first { $0.uid == uid }?.backend?.session
        let (tokens, _) = try await session(uid: uid, minimumTTL: 60, force: refreshed, seen: refreshed ? nil : seen)
        guard let idToken = tokens.idToken else { throw AuthError.internalError("the Firebase session holds no ID token") }
        return idToken
    }
}
