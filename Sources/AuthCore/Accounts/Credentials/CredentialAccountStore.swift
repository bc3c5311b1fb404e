/// An account store where a credential of authctl's own flows is applied under the account
/// rules of docs/accounts.md (`login`, `link`, `reauth` with the local backend, `LocalAccountBackend`):
/// the keystore (`KeystoreAccountStore`). A Firebase project is not one: it brokers its
/// sign-ins itself (`FirebaseAccountBackend`), so no credential exists here to apply.
public protocol CredentialAccountStore: AccountStore {
    /// `login`: the identity's user signs in, or a new user is created; a refusal
    /// (`account-exists-with-different-credential`) has saved the credential as pending.
    /// `pendingHandle`: the pending credential being applied, removed on success.
    func signIn(with credential: Credential, pendingHandle: String?) async throws -> AccountRules.SignInResult
    /// `link`: the identity joins the user `uid`; a refusal (`credential-already-in-use`)
    /// has saved the credential as pending. `consent`: a private-relay link was agreed to.
    func link(_ credential: Credential, toUser uid: String?, pendingHandle: String?, consent: Bool) async throws -> User
    /// `reauth`: fresh tokens and `lastAuthAt` for an identity the user `uid` already has.
    func reauthenticate(user uid: String, with credential: Credential) async throws -> User
    /// `login URL`: keeps a resource's grant under the user `AccountRules.storeGrant` chooses
    /// (the identity's, when the server named one), in one change; a refusal of the
    /// identity (`account-exists-with-different-credential`) has saved it as pending. `more`:
    /// the other grants of one sign-in for several resources, kept in the same change.
    func storeResourceGrant(_ grant: ResourceGrant, more: [ResourceGrant], identity: Credential?) async throws -> AccountRules.GrantResult
}

extension CredentialAccountStore {
    /// `login URL` for one resource.
    public func storeResourceGrant(_ grant: ResourceGrant, identity: Credential?) async throws -> AccountRules.GrantResult {
        try await storeResourceGrant(grant, more: [], identity: identity)
    }
}
