/// The account rules of a workload (docs/ci.md): a workload signs in as itself and
/// is an account of its own kind. Its identity is (provider id, issuer, client id); it is
/// matched only against other workloads, so a person's user is never merged with it (nor a
/// workload with a person's, whatever the ids), and no email rule applies: it has none.
extension AccountRules {
    /// `login --client-credentials`: the workload already in the keystore signs in again
    /// (its tokens and how it authenticates are replaced), or a new workload user is made.
    public static func signInWorkload(_ state: inout AccountState, with credential: Credential, context: Context) throws -> SignInResult {
        guard let client = credential.workload else { throw AuthError.internalError("a workload sign-in without its client") }
        let now = context.now
        pruneExpiredPending(&state, now: now)
        let identity = LinkedIdentity(
            providerID: credential.providerID, issuer: credential.issuer, federatedID: credential.federatedID, profile: credential.profile,
            linkedAt: now, tokens: credential.tokens, workload: client)
        if let userIndex = state.users.firstIndex(where: { $0.kind == .workload && $0.providerData.contains { $0.matches(credential.key) } }
        ) {
            var user = state.users[userIndex]
            for index in user.providerData.indices where user.providerData[index].matches(credential.key) {
                user.providerData[index].tokens = credential.tokens
                user.providerData[index].workload = client
            }
            user.lastSignInAt = now
            user.lastAuthAt = now
            user.lastProviderID = credential.providerID
            state.users[userIndex] = user
            state.currentUID = user.uid
            return SignInResult(user: user, isNewUser: false)
        }
        let user = User(
            uid: context.newUID, email: nil, emailVerified: false, displayName: credential.profile.displayName, photoURL: nil,
            createdAt: now, lastSignInAt: now, lastAuthAt: now, lastProviderID: credential.providerID, providerData: [identity],
            kind: .workload)
        state.users.append(user)
        state.currentUID = user.uid
        return SignInResult(user: user, isNewUser: true)
    }

    /// `link` and `reauth` are a person's: a workload has one identity, its client, and
    /// proves itself at every grant. Refused with `invalid-argument` (docs/ci.md): the
    /// command does not apply to this kind of account.
    public static func refuseWorkload(_ user: User, command: Message.Verb) throws {
        guard user.kind == .workload else { return }
        let provider = user.lastProviderID ?? user.providerData.first?.providerID ?? "PROVIDER"
        let what: Message =
            command == .link
            ? "a workload cannot link another provider: it signs in as its client alone"
            : "a workload is not re-authenticated: it proves itself at every grant"
        throw AuthError.invalidArgument(
            "the current user \(user.uid) is a workload (client credentials); \(what). Sign it in again with: \(command: .login, "\(provider)", .input(.clientCredentials, nil)); or sign in as a person first: \(command: .login, "PROVIDER")"
        )
    }
}
