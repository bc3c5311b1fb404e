/// The user database: where identities and users are removed (unlink, delete, sign out),
/// under the account rules of docs/accounts.md — the keystore with `AccountRules` enforced locally
/// (`KeystoreAccountStore`), or with docs/firebase.md's Firebase backend the project, which enforces
/// the same rules remotely (`FirebaseAccountStore`). Where a credential of authctl's own
/// flows is applied, the store is also a `CredentialAccountStore`.
///
/// Values in, values out, and the same `AuthError` codes from either: a flow never knows
/// which one runs. Every operation names its user by uid, resolved once by the caller when
/// the command starts (another process may make someone else current meanwhile); nil means
/// the current user at the time of the operation.
public protocol AccountStore: Sendable {
    /// The accounts as they stand: users, the current user, pending credentials. An unsafe
    /// or corrupt store fails here, before any sign-in starts.
    func accounts() throws -> AccountState
    /// The pending credential saved under `handle` by an earlier conflict, unexpired (docs/accounts.md).
    func pendingCredential(_ handle: String) throws -> PendingCredential

    /// What `unlink` would remove from the user `uid`, checked by the rules without changing
    /// anything, so that its token can be revoked before the identity goes.
    func identityToUnlink(_ providerID: String, fromUser uid: String?) throws -> LinkedIdentity
    /// `unlink`: removes the identity (and its tokens); the user as it is after.
    func unlink(_ providerID: String, fromUser uid: String?) async throws -> User
    /// The user `users delete` would remove, checked by the rules (a recent sign-in) without
    /// changing anything, so that its tokens can be revoked first.
    func userToDelete(_ uid: String?) throws -> User
    /// `users delete`: removes the user; the user as it was.
    func deleteUser(_ uid: String) async throws -> User
    /// `signout`: drops the tokens of the user `uid`, or of everyone with `all`.
    func signOut(all: Bool, user uid: String?) async throws
}
