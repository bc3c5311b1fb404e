/// The `AccountStore` of users held by a Firebase project (docs/firebase.md): unlink through
/// `accounts:update` with `deleteProvider`, `users delete` through `accounts:delete` (Apple:
/// `v2/accounts:revokeToken` first), sign-out local; the keystore keeps the session and
/// follows what the project did. Firebase enforces the rules (the recent-login window is its
/// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), so the checks here are the ones that need no call.
///
/// A credential from authctl's own flows is never applied to a Firebase user: Firebase
/// brokers its sign-ins (`FirebaseAccountBackend`), so this is no `CredentialAccountStore`.
public struct FirebaseAccountStore: AccountStore {
    let client: FirebaseAuthClient
    let keystore: any Keystore
    let clock: any Clock
    let sessions: FirebaseSessionRefresh

    public init(client: FirebaseAuthClient, keystore: any Keystore, clock: any Clock) {
        self.client = client
        self.keystore = keystore
        self.clock = clock
        sessions = FirebaseSessionRefresh(client: client, keystore: keystore, clock: clock)
    }

    public func accounts() throws -> AccountState { try keystore.read() }

    public func pendingCredential(_ handle: String) throws -> PendingCredential {
        try AccountRules.pendingCredential(handle, in: keystore.read(), now: clock.now())
    }

    /// The identity `unlink` removes, checked by the rules; its tokens are not authctl's to
    /// revoke (Firebase holds the provider's session), so none is returned with it.
    public func identityToUnlink(_ providerID: String, fromUser uid: String?) throws -> LinkedIdentity {
        var preview = try keystore.read()
        var removed = try AccountRules.unlink(&preview, providerID: providerID, uid: uid).removed
        removed.tokens = nil
        return removed
    }

    public func unlink(_ providerID: String, fromUser uid: String?) async throws -> User {
        let user = try resolve(uid)
        let idToken = try await sessions.freshIDToken(uid: user.uid)
        try await client.unlink(providerID, idToken: idToken)
        return try await keystore.update { state in try AccountRules.unlink(&state, providerID: providerID, uid: user.uid).user }
    }

    /// The user `users delete` removes; whether the sign-in is recent enough is Firebase's
    /// call (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`). Its tokens are revoked through Firebase.
    public func userToDelete(_ uid: String?) throws -> User {
        var user = try resolve(uid)
        for index in user.providerData.indices { user.providerData[index].tokens = nil }
        return user
    }

    public func deleteUser(_ uid: String) async throws -> User {
        let user = try resolve(uid)
        // A token just issued carries the project's `auth_time`: a sign-in too old for
        // Firebase's five minutes is refused here, before a token is revoked for nothing.
        let idToken = try await sessions.freshIDToken(uid: uid, refreshed: true)
        let authTime = IDTokenClaims.unverifiedParts(of: idToken).flatMap { $0.payload["auth_time"]?.numberValue }
        if let authTime, clock.now().timeIntervalSince1970 - authTime > AccountRules.recentLoginWindow {
            throw FirebaseErrorMapping.error(
                FirebaseServiceError(code: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"),
                operation: .reauthenticate(providerID: user.lastProviderID ?? "PROVIDER"), project: client.project)
        }
        // A provider that requires it (Apple, docs/apple.md, docs/firebase.md) has its tokens revoked first.
        for identity in user.providerData {
            guard let id = try? ProviderID(parsing: identity.providerID), ProviderRegistry.kind(of: id).revokesTokensWhenAccountDeleted,
                let token = identity.tokens?.accessToken
            else { continue }
            try await client.revokeToken(providerID: identity.providerID, token: token, idToken: idToken)
        }
        try await client.deleteAccount(idToken: idToken)
        return try await keystore.update { state in
            guard let index = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
            let removed = state.users.remove(at: index)
            if state.currentUID == uid { state.currentUID = nil }
            state.pendingCredentials.removeAll { $0.conflictingUID == uid }
            return removed
        }
    }

    /// Local, as docs/firebase.md says: the tokens and the Firebase session dropped, the record kept.
    public func signOut(all: Bool, user uid: String?) async throws {
        try await keystore.update { state in try Self.signOut(&state, all: all, uid: uid) }
    }

    /// `AccountRules.signOut`, and the Firebase sessions of the same users.
    static func signOut(_ state: inout AccountState, all: Bool, uid: String?) throws {
        let target = uid ?? state.currentUID
        try AccountRules.signOut(&state, all: all, uid: uid)
        for index in state.users.indices where all || state.users[index].uid == target {
            state.users[index].backend?.session = nil
        }
    }

    /// The user a command names (nil: the current one), a user of this project.
    func resolve(_ uid: String?) throws -> User {
        let state = try keystore.read()
        guard let uid = uid ?? state.currentUID else { throw AuthError.noCurrentUser }
        guard let user = state.users.first(where: { $0.uid == uid }) else { throw AuthError.unknownUser(uid) }
        try FirebaseSignIn.checkServed(user, by: client)
        return user
    }
}
