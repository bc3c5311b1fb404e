/// The account rules of docs/accounts.md, as pure functions: (state, credential) → new state, or
/// an `AuthError`. No I/O; the caller applies them under the keystore lock, where a thrown
/// error writes nothing.
///
/// Two refusals do change the state: they save the credential as a pending credential so
/// that a later command can finish the resolution. Those return `.refused(error)` with the
/// pending credential already in `state`; the caller stores the state, then throws.
public enum AccountRules {
    /// What a rule draws from outside, passed in so the rules stay pure.
    public struct Context: Sendable {
        public var now: Date
        /// The uid to mint if a user is created.
        public var newUID: String
        /// The handle to use if a pending credential is saved.
        public var newHandle: String

        public init(now: Date, newUID: String, newHandle: String) {
            self.now = now
            self.newUID = newUID
            self.newHandle = newHandle
        }
    }

    /// The result of a rule that may save a pending credential when it refuses.
    public enum Outcome<Success: Sendable>: Sendable {
        case applied(Success)
        /// Refused; the pending credential named in the error is in the state.
        case refused(AuthError)

        /// The value, or the refusal thrown.
        public func get() throws -> Success {
            switch self {
            case .applied(let value): return value
            case .refused(let error): throw error
            }
        }
    }

    public struct SignInResult: Sendable, Equatable {
        public var user: User
        public var isNewUser: Bool
    }

    /// How long after a sign-in a sensitive operation (`users delete`) is allowed.
    public static let recentLoginWindow: TimeInterval = 300

    // MARK: - login

    /// `login`: an identity already linked to a user signs in to that user; an unknown
    /// identity whose verified email belongs to a user is refused with
    /// `account-exists-with-different-credential` (the credential is saved as pending);
    /// any other unknown identity creates a new user from its profile.
    ///
    /// - Parameter pendingHandle: the pending credential being applied
    ///   (`login --credential`): removed on success, kept (not duplicated) on refusal.
    public static func signIn(
        _ state: inout AccountState, with credential: Credential, context: Context, pendingHandle: String? = nil
    ) -> Outcome<SignInResult> {
        let now = context.now
        pruneExpiredPending(&state, now: now)
        // A workload's identity is never a person's to sign in to (AccountRules+Workload).
        if let (userIndex, identityIndex) = state.owner(of: credential.key), state.users[userIndex].kind != .workload {
            var user = state.users[userIndex]
            user.providerData[identityIndex].tokens = credential.tokens
            mergeProfile(of: &user.providerData[identityIndex], from: credential.profile)
            mergeProfile(into: &user, from: credential.profile)
            user.lastSignInAt = now
            user.lastAuthAt = now
            user.lastProviderID = credential.providerID
            state.users[userIndex] = user
            state.currentUID = user.uid
            removePending(pendingHandle, from: &state)
            return .applied(SignInResult(user: user, isNewUser: false))
        }
        if credential.profile.emailVerified, let email = credential.profile.email, let owner = state.user(claimingEmail: email) {
            let handle = savePending(
                &state, reason: .accountExists, conflictingUID: owner.uid, credential: credential, context: context,
                reusing: pendingHandle)
            return .refused(
                .accountExists(email: email, existing: owner, pendingHandle: handle, signedIn: state.currentUID == owner.uid))
        }
        let user = User(
            uid: context.newUID, email: credential.profile.email, emailVerified: credential.profile.emailVerified,
            displayName: credential.profile.displayName, photoURL: credential.profile.photoURL,
            createdAt: now, lastSignInAt: now, lastAuthAt: now, lastProviderID: credential.providerID,
            providerData: [identity(from: credential, linkedAt: now)])
        state.users.append(user)
        state.currentUID = user.uid
        removePending(pendingHandle, from: &state)
        return .applied(SignInResult(user: user, isNewUser: true))
    }

    // MARK: - link

    /// `link`: adds the identity to the current user. An identity that belongs to another
    /// user is refused with `credential-already-in-use` (the credential is saved as pending,
    /// so that `login --credential` can sign in to that user).
    ///
    /// - Parameters:
    ///   - consent: the user agreed to link a private-relay identity (`--consent` or a yes
    ///     on the terminal); without it such a link is `consent-required`.
    ///   - uid: the user the command resolved when it started (nil: the current user).
    public static func link(
        _ state: inout AccountState, with credential: Credential, context: Context, pendingHandle: String? = nil,
        consent: Bool = false, uid: String? = nil
    ) throws -> Outcome<User> {
        pruneExpiredPending(&state, now: context.now)
        let userIndex = try userIndex(state, resolved: uid)
        var user = state.users[userIndex]
        try refuseWorkload(user, command: .link)
        if let linked = user.identity(for: credential.providerID) {
            throw AuthError.providerAlreadyLinked(credential.providerID, sameIdentity: linked.matches(credential.key))
        }
        if !consent, state.owner(of: credential.key) == nil, let reason = consentReason(linking: credential.profile, to: user) {
            throw AuthError.consentRequired(reason)
        }
        if let (ownerIndex, _) = state.owner(of: credential.key) {
            let owner = state.users[ownerIndex]
            let handle = savePending(
                &state, reason: .credentialAlreadyInUse, conflictingUID: owner.uid, credential: credential, context: context,
                reusing: pendingHandle)
            return .refused(.credentialAlreadyInUse(credential.providerID, ownerUID: owner.uid, pendingHandle: handle))
        }
        user.providerData.append(identity(from: credential, linkedAt: context.now))
        mergeProfile(into: &user, from: credential.profile)
        state.users[userIndex] = user
        removePending(pendingHandle, from: &state)
        return .applied(user)
    }

    /// Why linking an identity with this profile to `user` needs consent, or nil when it
    /// does not (docs/apple.md): either side has a private-relay email, so linking would tie the
    /// hidden address to another identity.
    public static func consentReason(linking profile: Profile, to user: User) -> String? {
        if profile.isPrivateEmail == true {
            return
                "this \(profile.email.map { "account's address \($0)" } ?? "account") is a private relay that hides your real email; linking it to \(user.email ?? user.uid) lets that be known"
        }
        if let hidden = user.providerData.first(where: { $0.profile.isPrivateEmail == true }) {
            return
                "the user's \(hidden.providerID) identity uses a private relay address that hides the real email; linking another account to it lets the two be tied together"
        }
        return nil
    }

    /// Checked before a link flow starts, when no consent can be asked (no terminal, no
    /// `--consent`): a user with a private-relay identity cannot link anything.
    public static func checkConsentPossible(_ state: AccountState) throws {
        guard let user = state.currentUser else { return }
        if let reason = consentReason(linking: Profile(), to: user) { throw AuthError.consentRequired(reason) }
    }

    // MARK: - reauth

    /// `reauth`: the credential must be the current user's identity for its provider; its
    /// tokens are replaced and `lastAuthAt` is now.
    /// `uid`: the user the command resolved when it started (nil: the current user).
    public static func reauthenticate(_ state: inout AccountState, with credential: Credential, now: Date, uid: String? = nil) throws
        -> User
    {
        let userIndex = try userIndex(state, resolved: uid)
        var user = state.users[userIndex]
        try refuseWorkload(user, command: .reauthenticate)
        guard let identityIndex = user.providerData.firstIndex(where: { $0.providerID == credential.providerID }) else {
            throw AuthError.noSuchProvider(credential.providerID, linked: user.providerData.map(\.providerID))
        }
        guard user.providerData[identityIndex].matches(credential.key) else {
            throw AuthError.userMismatch(
                "the \(credential.providerID) account you signed in with is not the one linked to the current user. Sign in with the account shown by: \(command: .status)",
                details: ["providerId": .string(credential.providerID), "uid": .string(user.uid)])
        }
        user.providerData[identityIndex].tokens = credential.tokens
        mergeProfile(of: &user.providerData[identityIndex], from: credential.profile)
        mergeProfile(into: &user, from: credential.profile)
        user.lastAuthAt = now
        state.users[userIndex] = user
        return user
    }

    /// Checked before a reauthentication flow starts: the current user must have an
    /// identity for the provider (so nobody signs in at a provider for nothing).
    public static func checkCanReauthenticate(_ state: AccountState, providerID: String) throws {
        let user = state.users[try currentUserIndex(state)]
        try refuseWorkload(user, command: .reauthenticate)
        guard user.identity(for: providerID) != nil else {
            throw AuthError.noSuchProvider(providerID, linked: user.providerData.map(\.providerID))
        }
    }

    /// Checked before a link flow starts: someone is signed in and has no identity for the provider yet.
    public static func checkCanLink(_ state: AccountState, providerID: String) throws {
        let user = state.users[try currentUserIndex(state)]
        try refuseWorkload(user, command: .link)
        if user.identity(for: providerID) != nil { throw AuthError.providerAlreadyLinked(providerID, sameIdentity: false) }
    }

    // MARK: - unlink

    /// `unlink`: removes the identity (and its tokens) from the current user. The last
    /// identity of a user cannot be unlinked: nobody could sign in to that user again
    /// (`users delete` removes the user instead). `uid`: the user the command resolved when
    /// it started (nil: the current user).
    @discardableResult
    public static func unlink(_ state: inout AccountState, providerID: String, uid: String? = nil) throws -> (
        user: User, removed: LinkedIdentity
    ) {
        let userIndex = try userIndex(state, resolved: uid)
        var user = state.users[userIndex]
        guard let identityIndex = user.providerData.firstIndex(where: { $0.providerID == providerID }) else {
            throw AuthError.noSuchProvider(providerID, linked: user.providerData.map(\.providerID))
        }
        guard user.providerData.count > 1 else {
            throw AuthError.invalidArgument(
                "\(providerID) is the only provider of this user; without it nobody could sign in to the user again. Link another provider first (\(command: .link, "PROVIDER")), or delete the user (\(command: .usersDelete))"
            )
        }
        let removed = user.providerData.remove(at: identityIndex)
        // The grants chained from that identity (`login URL --via`) could not be renewed: gone with it.
        user.resourceGrants.removeAll { $0.viaProviderID == providerID }
        if user.lastProviderID == providerID { user.lastProviderID = user.providerData.first?.providerID }
        state.users[userIndex] = user
        return (user, removed)
    }

    // MARK: - users delete

    /// `users delete [UID]`: a sensitive operation, allowed only within five minutes of the
    /// user's last sign-in or reauthentication.
    @discardableResult
    public static func deleteUser(_ state: inout AccountState, uid: String?, now: Date) throws -> User {
        guard let uid = uid ?? state.currentUID else { throw AuthError.noCurrentUser }
        guard let index = state.userIndex(uid: uid) else { throw AuthError.unknownUser(uid) }
        let user = state.users[index]
        guard now.timeIntervalSince(user.lastAuthAt) <= recentLoginWindow else {
            throw AuthError.requiresRecentLogin(
                "deleting a user needs a sign-in in the last 5 minutes (the last was at \(user.lastAuthAt.formatted(Date.ISO8601FormatStyle()))). Reauthenticate, then delete again: \(command: .reauthenticate, .value(user.lastProviderID ?? user.providerData.first?.providerID ?? "PROVIDER"))",
                details: ["uid": .string(uid)])
        }
        state.users.remove(at: index)
        if state.currentUID == uid { state.currentUID = nil }
        state.pendingCredentials.removeAll { $0.conflictingUID == uid }
        return user
    }

    // MARK: - signout, users use

    /// `signout`: drops the tokens of the current user (every user's with `all`) and clears
    /// the current user. Users and their identities stay. `uid`: the user the command
    /// resolved when it started (nil: the current user); when another one has been made
    /// current meanwhile, that one stays current and signed in.
    public static func signOut(_ state: inout AccountState, all: Bool, uid: String? = nil) throws {
        guard all || uid != nil || state.currentUser != nil else { throw AuthError.noCurrentUser }
        let target = uid ?? state.currentUID
        for userIndex in state.users.indices where all || state.users[userIndex].uid == target {
            for identityIndex in state.users[userIndex].providerData.indices {
                state.users[userIndex].providerData[identityIndex].tokens = nil
            }
            for grantIndex in state.users[userIndex].resourceGrants.indices {
                state.users[userIndex].resourceGrants[grantIndex].tokens = nil
            }
        }
        if all || state.currentUID == target { state.currentUID = nil }
    }

    /// `users use UID`: makes another user current (one that still has tokens).
    public static func use(_ state: inout AccountState, uid: String) throws {
        guard let index = state.userIndex(uid: uid) else { throw AuthError.unknownUser(uid) }
        guard state.users[index].providerData.contains(where: { $0.tokens != nil }) else {
            let provider = state.users[index].lastProviderID ?? state.users[index].providerData.first?.providerID ?? "PROVIDER"
            throw AuthError.noCurrentUser(message: "user \(uid) is signed out. Sign in again with: \(command: .login, "\(provider)")")
        }
        state.currentUID = uid
    }

    // MARK: - pending credentials

    /// The pending credential saved under `handle`, if it is still usable.
    public static func pendingCredential(_ handle: String, in state: AccountState, now: Date) throws -> PendingCredential {
        guard PendingCredential.isHandle(handle), let pending = state.pendingCredentials.first(where: { $0.handle == handle }) else {
            throw AuthError.invalidArgument(
                "there is no pending credential '\(Sanitize.text(handle, limit: 40))': it was used already, or never saved in this keystore. Start again with: \(command: .login, "PROVIDER")"
            )
        }
        guard !pending.isExpired(at: now) else {
            throw AuthError.invalidCredential(
                "the pending credential \(handle) expired at \(pending.expiresAt.formatted(Date.ISO8601FormatStyle())) (they last one hour). Sign in again: \(command: .login, "\(pending.credential.providerID)")"
            )
        }
        return pending
    }

    static func savePending(
        _ state: inout AccountState, reason: PendingCredential.Reason, conflictingUID: String, credential: Credential,
        context: Context, reusing handle: String?
    ) -> String {
        if let handle, state.pendingCredentials.contains(where: { $0.handle == handle }) { return handle }
        state.pendingCredentials.append(
            PendingCredential(
                handle: context.newHandle, reason: reason, conflictingUID: conflictingUID, createdAt: context.now, credential: credential))
        return context.newHandle
    }

    static func removePending(_ handle: String?, from state: inout AccountState) {
        guard let handle else { return }
        state.pendingCredentials.removeAll { $0.handle == handle }
    }

    static func pruneExpiredPending(_ state: inout AccountState, now: Date) {
        state.pendingCredentials.removeAll { $0.isExpired(at: now) }
    }

    // MARK: - profiles

    static func identity(from credential: Credential, linkedAt: Date) -> LinkedIdentity {
        LinkedIdentity(
            providerID: credential.providerID, issuer: credential.issuer, federatedID: credential.federatedID,
            profile: credential.profile, linkedAt: linkedAt, tokens: credential.tokens)
    }

    /// The user's profile (docs/accounts.md): fields the user lacks are filled from the
    /// provider; a stored value is never overwritten. `emailVerified` becomes true when a
    /// provider verifies the user's own email.
    static func mergeProfile(into user: inout User, from profile: Profile) {
        if user.email == nil, let email = profile.email {
            user.email = email
            user.emailVerified = profile.emailVerified
        } else if let email = user.email, profile.email?.lowercased() == email.lowercased(), profile.emailVerified {
            user.emailVerified = true
        }
        if user.displayName == nil { user.displayName = profile.displayName }
        if user.photoURL == nil { user.photoURL = profile.photoURL }
    }

    /// An identity's own profile is what its provider said last; a field the provider no
    /// longer states keeps its stored value.
    static func mergeProfile(of identity: inout LinkedIdentity, from profile: Profile) {
        if let email = profile.email {
            identity.profile.email = email
            identity.profile.emailVerified = profile.emailVerified
        }
        if let name = profile.displayName { identity.profile.displayName = name }
        if let photo = profile.photoURL { identity.profile.photoURL = photo }
    }

    /// The index of the user a command resolved when it started (nil: the current user). A
    /// user removed meanwhile by another process is said so, not `no-current-user`.
    static func userIndex(_ state: AccountState, resolved uid: String?) throws -> Int {
        guard let uid else { return try currentUserIndex(state) }
        guard let index = state.userIndex(uid: uid) else {
            throw AuthError.invalidCredential(
                "the user \(uid) was removed by another command (\(command: .usersDelete)) while this one ran. Sign in again: \(command: .login, "PROVIDER")"
            )
        }
        return index
    }

    static func currentUserIndex(_ state: AccountState) throws -> Int {
        guard let index = state.currentUID.flatMap(state.userIndex(uid:)) else { throw AuthError.noCurrentUser }
        return index
    }
}
