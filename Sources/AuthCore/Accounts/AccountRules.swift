import Foundation

/// The account rules of SPEC §5, as pure functions: (state, credential) → new state, or
/// an `AuthError`. No I/O; the caller applies them under the keystore lock.
public enum AccountRules {
    public struct SignInResult: Sendable, Equatable {
        public var user: User
        public var isNewUser: Bool
    }

    /// `login`: an identity already linked to a user signs in to that user; an unknown
    /// identity creates a new user from its profile.
    ///
    /// - Parameter newUID: the uid to mint if a user is created (drawn by the caller).
    public static func signIn(_ state: inout AccountState, with credential: Credential, now: Date, newUID: String) -> SignInResult {
        if let (userIndex, identityIndex) = state.owner(of: credential.key) {
            var user = state.users[userIndex]
            user.providerData[identityIndex].tokens = credential.tokens
            user.providerData[identityIndex].profile = credential.profile
            mergeProfile(into: &user, from: credential.profile)
            user.lastSignInAt = now
            user.lastAuthAt = now
            user.lastProviderID = credential.providerID
            state.users[userIndex] = user
            state.currentUID = user.uid
            return SignInResult(user: user, isNewUser: false)
        }
        let user = User(
            uid: newUID, email: credential.profile.email, emailVerified: credential.profile.emailVerified,
            displayName: credential.profile.displayName, photoURL: credential.profile.photoURL,
            createdAt: now, lastSignInAt: now, lastAuthAt: now, lastProviderID: credential.providerID,
            providerData: [
                LinkedIdentity(
                    providerID: credential.providerID, issuer: credential.issuer, federatedID: credential.federatedID,
                    profile: credential.profile, linkedAt: now, tokens: credential.tokens)
            ])
        state.users.append(user)
        state.currentUID = user.uid
        return SignInResult(user: user, isNewUser: true)
    }

    /// The profile merge of a sign-in: fields the user lacks are filled from the provider;
    /// a stored value is never overwritten. `emailVerified` becomes true when the provider
    /// verifies the user's own email.
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

    /// `signout`: drops the tokens of the current user (every user's with `all`) and clears
    /// the current user. Users and their identities stay.
    public static func signOut(_ state: inout AccountState, all: Bool) throws {
        guard all || state.currentUser != nil else { throw AuthError.noCurrentUser }
        for userIndex in state.users.indices where all || state.users[userIndex].uid == state.currentUID {
            for identityIndex in state.users[userIndex].providerData.indices {
                state.users[userIndex].providerData[identityIndex].tokens = nil
            }
        }
        state.currentUID = nil
    }

    /// `users use UID`: makes another user current (one that still has tokens).
    public static func use(_ state: inout AccountState, uid: String) throws {
        guard let index = state.userIndex(uid: uid) else {
            throw AuthError.invalidArgument("no user has the uid '\(Sanitize.text(uid, limit: 64))'. List them with: authctl users list")
        }
        guard state.users[index].providerData.contains(where: { $0.tokens != nil }) else {
            throw AuthError(.noCurrentUser, "user \(uid) is signed out. Sign in again with: authctl login PROVIDER")
        }
        state.currentUID = uid
    }
}
