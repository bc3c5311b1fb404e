/// The account store of the executable: each operation on a user goes to that user's
/// backend (docs/firebase.md) — the keystore's rules for a local user, the project for a Firebase
/// user — so that a flow never knows which one runs.
public struct BackendAccountStore: CredentialAccountStore {
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
        try await credentialStore(forUser: uid).link(credential, toUser: uid, pendingHandle: pendingHandle, consent: consent)
    }

    public func reauthenticate(user uid: String, with credential: Credential) async throws -> User {
        try await credentialStore(forUser: uid).reauthenticate(user: uid, with: credential)
    }

    /// Local for every backend: a resource's grant is kept in the keystore (docs/resources.md).
    public func storeResourceGrant(_ grant: ResourceGrant, more: [ResourceGrant], identity: Credential?) async throws
        -> AccountRules.GrantResult
    {
        try await local.storeResourceGrant(grant, more: more, identity: identity)
    }

    /// The keystore, for a user whose credential authctl applies; a Firebase user's sign-ins
    /// are brokered by its project (`FirebaseAccountBackend`), so none is applied to it here.
    func credentialStore(forUser uid: String?) throws -> any CredentialAccountStore {
        guard try store(forUser: uid) is KeystoreAccountStore else { throw Self.brokered }
        return local
    }

    static var brokered: AuthError {
        AuthError.invalidArgument(
            "a Firebase user signs in through Firebase, which runs the code exchange. Choose the project as the backend: \(command: .backendUse, "firebase", .input(.project, "ID"), .input(.apiKey, "KEY"))"
        )
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
