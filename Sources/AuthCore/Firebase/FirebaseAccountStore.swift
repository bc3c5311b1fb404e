/// The `AccountStore` of users held by a Firebase project (SPEC §9): unlink through
/// `accounts:update` with `deleteProvider`, `users delete` through `accounts:delete` (Apple:
/// `v2/accounts:revokeToken` first), sign-out local; the keystore keeps the session and
/// follows what the project did. Firebase enforces the rules (the recent-login window is its
/// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), so the checks here are the ones that need no call.
///
/// A credential from authctl's own flows is never applied to a Firebase user: Firebase
/// brokers its sign-ins (`FirebaseSignIn`), so `signIn`, `link` and `reauthenticate` refuse.
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

    public func signIn(with credential: Credential, pendingHandle: String?) async throws -> AccountRules.SignInResult {
        throw Self.brokered
    }

    public func link(_ credential: Credential, toUser uid: String?, pendingHandle: String?, consent: Bool) async throws -> User {
        throw Self.brokered
    }

    public func reauthenticate(user uid: String, with credential: Credential) async throws -> User { throw Self.brokered }

    static var brokered: AuthError {
        AuthError.invalidArgument(
            "a Firebase user signs in through Firebase, which runs the code exchange. Choose the project as the backend: \(command: .backendUse, "firebase", .input(.project, "ID"), .input(.apiKey, "KEY"))"
        )
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
        // Firebase's five minutes is refused here, before Apple's token is revoked for nothing.
        let idToken = try await sessions.freshIDToken(uid: uid, refreshed: true)
        let authTime = IDTokenClaims.unverifiedParts(of: idToken).flatMap { $0.payload["auth_time"]?.numberValue }
        if let authTime, clock.now().timeIntervalSince1970 - authTime > AccountRules.recentLoginWindow {
            throw FirebaseErrorMapping.error(
                FirebaseServiceError(code: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"),
                operation: .reauthenticate(providerID: user.lastProviderID ?? "PROVIDER"), project: client.project)
        }
        // Apple requires an app to revoke its tokens when the account goes (SPEC §4, §9).
        if let apple = user.identity(for: "apple.com"), let token = apple.tokens?.accessToken {
            try await client.revokeToken(providerID: "apple.com", token: token, idToken: idToken)
        }
        try await client.deleteAccount(idToken: idToken)
        return try await keystore.update { state in
            guard let index = state.userIndex(uid: uid) else { throw TokenRefresh.removed(uid) }
            let removed = state.users.remove(at: index)
            if state.currentUID == uid { state.currentUID = nil }
            state.pendingCredentials.removeAll { $0.conflictingUID == uid }
            return removed
        }
    }

    /// Local, as SPEC §9 says: the tokens and the Firebase session dropped, the record kept.
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

/// The account store of the executable: each operation on a user goes to that user's
/// backend (SPEC §9) — the keystore's rules for a local user, the project for a Firebase
/// user — so that a flow never knows which one runs.
public struct BackendAccountStore: AccountStore {
    let local: KeystoreAccountStore
    let keystore: any Keystore
    /// The configured Firebase project's store; nil with the local backend. Made when a
    /// Firebase user is operated on (its configuration errors then, not before).
    let firebase: @Sendable () throws -> FirebaseAccountStore?

    public init(local: KeystoreAccountStore, keystore: any Keystore, firebase: @escaping @Sendable () throws -> FirebaseAccountStore?) {
        self.local = local
        self.keystore = keystore
        self.firebase = firebase
    }

    /// The store of the user `uid` (nil: the current user).
    func store(forUser uid: String?) throws -> any AccountStore {
        let state = try keystore.read()
        guard let user = (uid ?? state.currentUID).flatMap({ uid in state.users.first { $0.uid == uid } }), let backend = user.backend
        else { return local }
        guard let store = try firebase(), store.client.project == backend.projectID else {
            throw AuthError.notConfigured(
                "the user \(user.email ?? user.uid) lives in the Firebase project \(backend.projectID), which is not the configured backend. Set it: \(command: .backendUse, "firebase", .input(.project, "\(backend.projectID)"), .input(.apiKey, "KEY"))"
            )
        }
        return store
    }

    public func accounts() throws -> AccountState { try local.accounts() }
    public func pendingCredential(_ handle: String) throws -> PendingCredential { try local.pendingCredential(handle) }

    public func signIn(with credential: Credential, pendingHandle: String?) async throws -> AccountRules.SignInResult {
        try await local.signIn(with: credential, pendingHandle: pendingHandle)
    }

    public func link(_ credential: Credential, toUser uid: String?, pendingHandle: String?, consent: Bool) async throws -> User {
        try await store(forUser: uid).link(credential, toUser: uid, pendingHandle: pendingHandle, consent: consent)
    }

    public func reauthenticate(user uid: String, with credential: Credential) async throws -> User {
        try await store(forUser: uid).reauthenticate(user: uid, with: credential)
    }

    public func identityToUnlink(_ providerID: String, fromUser uid: String?) throws -> LinkedIdentity {
        try store(forUser: uid).identityToUnlink(providerID, fromUser: uid)
    }

    public func unlink(_ providerID: String, fromUser uid: String?) async throws -> User {
        try await store(forUser: uid).unlink(providerID, fromUser: uid)
    }

    public func userToDelete(_ uid: String?) throws -> User { try store(forUser: uid).userToDelete(uid) }

    public func deleteUser(_ uid: String) async throws -> User { try await store(forUser: uid).deleteUser(uid) }

    /// Local for every backend: the tokens and Firebase sessions dropped in one change.
    public func signOut(all: Bool, user uid: String?) async throws {
        try await keystore.update { state in try FirebaseAccountStore.signOut(&state, all: all, uid: uid) }
    }
}
