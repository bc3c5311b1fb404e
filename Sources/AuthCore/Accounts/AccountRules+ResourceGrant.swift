extension AccountRules {
    /// Who holds a resource's grant (docs/resources.md).
    public enum GrantOwner: Sendable, Equatable {
        /// The server returned an ID token: the user of that identity, by the account rules.
        case identity
        /// No ID token: the current user, who ran the command.
        case currentUser
        /// No ID token and nobody (or no local person) signed in: a new user, now current.
        case newUser
    }

    public struct GrantResult: Sendable, Equatable {
        /// The user who holds the grant, as the change left them.
        public var user: User
        public var owner: GrantOwner
        /// True when the change created `user` (a new identity's, or a new local user).
        public var isNewUser: Bool
    }

    /// `login URL` (docs/resources.md): keeps `grants` (one sign-in's, the first holding its
    /// refresh token), in order, under the user `identity` names — its
    /// user when it is linked, else as `signIn` applies it (which may refuse, saving it as
    /// pending) — or, without an identity, under the current local person, or a new user.
    /// That user becomes current. A grant is no sign-in of its user: `lastSignInAt` and
    /// `lastProviderID` of a user who had the identity stay as they were.
    ///
    /// The resource's tokens live in the grant alone (one refresh token in one place: a
    /// server that rotates refresh tokens would end a copy), so a new identity is applied
    /// with its ID token only, as `login --id-token` applies one; a linked identity keeps
    /// its own session.
    public static func storeGrant(
        _ state: inout AccountState, _ grants: [ResourceGrant], identity: Credential?, context: Context
    ) throws -> Outcome<GrantResult> {
        let uid: String
        let owner: GrantOwner
        var isNewUser = false
        if let identity {
            owner = .identity
            if let (userIndex, _) = state.owner(of: identity.key) {
                uid = state.users[userIndex].uid
            } else {
                var idTokenOnly = identity
                idTokenOnly.tokens = TokenSet(
                    accessToken: nil, tokenType: identity.tokens.tokenType, expiresAt: nil, refreshToken: nil,
                    idToken: identity.tokens.idToken, scopes: [])
                switch signIn(&state, with: idTokenOnly, context: context) {
                case .refused(let error): return .refused(error)
                case .applied(let result):
                    uid = result.user.uid
                    isNewUser = result.isNewUser
                }
            }
        } else if let current = state.currentUser, current.kind == .person, current.backend == nil {
            uid = current.uid
            owner = .currentUser
        } else {
            // Nobody (or a workload, or a Firebase user) is signed in: a new local user holds
            // the grant, and becomes current.
            let now = context.now
            state.users.append(
                User(
                    uid: context.newUID, email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now,
                    lastSignInAt: now, lastAuthAt: now, lastProviderID: nil, providerData: []))
            uid = context.newUID
            owner = .newUser
            isNewUser = true
        }
        guard let index = state.userIndex(uid: uid) else { throw AuthError.userRemoved(uid) }
        for grant in grants { state.users[index].store(grant) }
        state.currentUID = uid
        return .applied(GrantResult(user: state.users[index], owner: owner, isNewUser: isNewUser))
    }
}
