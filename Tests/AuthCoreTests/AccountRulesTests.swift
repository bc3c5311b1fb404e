import AuthCore
import Foundation
import Testing

/// Every row of the table of docs/accounts.md, on pure values.
@Suite("Account rules (docs/accounts.md)")
struct AccountRulesTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func credential(provider: String = "oidc.a", subject: String = "sub-1", email: String? = "ada@example.com", verified: Bool = true)
        -> Credential
    {
        Credential(
            providerID: provider, issuer: "https://\(provider).example", federatedID: subject,
            profile: Profile(email: email, emailVerified: verified, displayName: "Ada"),
            tokens: TokenSet(
                accessToken: "at-\(subject)", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt", idToken: nil, scopes: ["openid"]),
            claims: IDTokenClaims(raw: [:]))
    }

    func context(_ uid: String = "uid-new", handle: String = "pc_handle0000000000001", at time: Date? = nil) -> AccountRules.Context {
        AccountRules.Context(now: time ?? now, newUID: uid, newHandle: handle)
    }

    @discardableResult
    func signIn(_ state: inout AccountState, _ credential: Credential, uid: String = "uid-new", at time: Date? = nil) throws
        -> AccountRules.SignInResult
    {
        try AccountRules.signIn(&state, with: credential, context: context(uid, at: time)).get()
    }

    /// A user `uid-1` signed in with oidc.a (ada@example.com, verified).
    func signedIn() throws -> AccountState {
        var state = AccountState()
        try signIn(&state, credential(), uid: "uid-1")
        return state
    }

    func refusal<T>(_ outcome: AccountRules.Outcome<T>) -> AuthError? {
        if case .refused(let error) = outcome { return error }
        return nil
    }

    // MARK: login

    @Test("login with an unknown identity creates a new user that becomes current")
    func newUser() throws {
        var state = AccountState()
        let result = try signIn(&state, credential())
        #expect(result.isNewUser)
        #expect(state.currentUID == "uid-new")
        #expect(state.users.first?.providerData.first?.federatedID == "sub-1")
        #expect(state.users.first?.email == "ada@example.com")
    }

    @Test("login with an identity already linked signs in to its user: same uid, tokens replaced, times updated")
    func knownIdentity() throws {
        var state = try signedIn()
        try AccountRules.signOut(&state, all: false)
        var second = credential()
        second.tokens.accessToken = "at-new"
        let later = now.addingTimeInterval(100)
        let result = try signIn(&state, second, uid: "uid-unused", at: later)
        #expect(!result.isNewUser)
        #expect(state.users.count == 1 && state.currentUID == "uid-1")
        #expect(state.users[0].providerData[0].tokens?.accessToken == "at-new")
        #expect(state.users[0].lastSignInAt == later && state.users[0].lastAuthAt == later && state.users[0].createdAt == now)
    }

    @Test("login with a new identity whose verified email is another user's: account-exists, pending saved, nothing else changes")
    func accountExists() throws {
        let before = try signedIn()
        var state = before
        let outcome = AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())
        let error = try #require(refusal(outcome))
        #expect(error.code == .accountExistsWithDifferentCredential)
        #expect(error.details["email"] == "ada@example.com")
        #expect(error.details["providerIds"] == ["oidc.a"])
        #expect(error.details["pendingCredential"] == "pc_handle0000000000001")
        #expect(
            error.message.parts.contains(.command(.link, [.input(.pending, "pc_handle0000000000001")])) && error.message.contains("oidc.a"))
        #expect(state.users == before.users && state.currentUID == before.currentUID)
        let pending = try #require(state.pendingCredentials.first)
        #expect(state.pendingCredentials.count == 1)
        #expect(pending.reason == .accountExists && pending.conflictingUID == "uid-1")
        #expect(pending.credential.providerID == "oidc.b" && pending.expiresAt == now.addingTimeInterval(3600))
    }

    @Test("the email rule compares without case and also sees the verified emails of linked identities")
    func emailClaims() throws {
        var state = try signedIn()
        var upper = credential(provider: "oidc.b", subject: "b-1", email: "ADA@Example.com")
        #expect(refusal(AccountRules.signIn(&state, with: upper, context: context()))?.code == .accountExistsWithDifferentCredential)

        state = try signedIn()
        _ = try AccountRules.link(
            &state, with: credential(provider: "oidc.c", subject: "c-1", email: "ada@work.example"), context: context()
        )
        .get()
        upper = credential(provider: "oidc.d", subject: "d-1", email: "ada@work.example")
        #expect(refusal(AccountRules.signIn(&state, with: upper, context: context()))?.code == .accountExistsWithDifferentCredential)
    }

    @Test("an unverified email never triggers the account-exists rule: it creates a new user")
    func unverifiedEmail() throws {
        var state = try signedIn()
        let result = try signIn(&state, credential(provider: "oidc.b", subject: "b-1", verified: false), uid: "uid-2")
        #expect(result.isNewUser)
        #expect(state.users.map(\.uid) == ["uid-1", "uid-2"])
        #expect(state.pendingCredentials.isEmpty)
    }

    @Test("identities are matched by provider, issuer and federated id, never by email")
    func notByEmail() throws {
        var state = AccountState()
        try signIn(&state, credential(subject: "sub-1", verified: false), uid: "uid-1")
        #expect(try signIn(&state, credential(subject: "sub-2", verified: false), uid: "uid-2").isNewUser)
        var otherIssuer = credential(verified: false)
        otherIssuer.issuer = "https://elsewhere.example"
        #expect(try signIn(&state, otherIssuer, uid: "uid-3").isNewUser)
        #expect(state.users.map(\.uid) == ["uid-1", "uid-2", "uid-3"])
    }

    @Test("login --credential with a credential-already-in-use pending signs in to the other user and uses it up")
    func loginWithPending() throws {
        var state = try signedIn()
        try signIn(&state, credential(provider: "oidc.b", subject: "b-1", verified: false), uid: "uid-2")
        try AccountRules.use(&state, uid: "uid-1")
        let linkOutcome = try AccountRules.link(
            &state, with: credential(provider: "oidc.b", subject: "b-1", verified: false), context: context())
        let error = try #require(refusal(linkOutcome))
        let handle = try #require(error.details["pendingCredential"]?.stringValue)
        let pending = try AccountRules.pendingCredential(handle, in: state, now: now)
        let result = try AccountRules.signIn(&state, with: pending.credential, context: context("unused"), pendingHandle: handle).get()
        #expect(result.user.uid == "uid-2" && !result.isNewUser && state.currentUID == "uid-2")
        #expect(state.pendingCredentials.isEmpty, "a pending credential is used once")
    }

    @Test("login --credential that meets the account-exists rule again keeps the same handle and adds no second pending")
    func pendingRefusedAgain() throws {
        var state = try signedIn()
        _ = AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())
        let pending = try #require(state.pendingCredentials.first)
        let again = AccountRules.signIn(
            &state, with: pending.credential, context: context(handle: "pc_other00000000000002"), pendingHandle: pending.handle)
        #expect(refusal(again)?.details["pendingCredential"] == .string(pending.handle))
        #expect(state.pendingCredentials.map(\.handle) == [pending.handle])
    }

    // MARK: link

    @Test("link with nobody signed in: no-current-user")
    func linkWithoutUser() {
        var state = AccountState()
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.link(&state, with: credential(), context: context()) }
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.checkCanLink(state, providerID: "oidc.a") }
    }

    @Test("link a provider the user already has: provider-already-linked, state unchanged")
    func linkSameProvider() throws {
        var state = try signedIn()
        let before = state
        #expect { try AccountRules.link(&state, with: self.credential(subject: "other"), context: self.context()) } throws: {
            ($0 as? AuthError)?.code == .providerAlreadyLinked
        }
        #expect(state == before)
        #expect { try AccountRules.checkCanLink(state, providerID: "oidc.a") } throws: {
            ($0 as? AuthError)?.code == .providerAlreadyLinked
        }
    }

    @Test("link an identity that belongs to another user: credential-already-in-use, pending saved with that user's uid")
    func linkInUse() throws {
        var state = try signedIn()
        try signIn(&state, credential(provider: "oidc.b", subject: "b-1", verified: false), uid: "uid-2")
        try AccountRules.use(&state, uid: "uid-1")
        let users = state.users
        let error = try #require(
            refusal(
                try AccountRules.link(&state, with: credential(provider: "oidc.b", subject: "b-1", verified: false), context: context())))
        #expect(error.code == .credentialAlreadyInUse)
        #expect(error.details["uid"] == "uid-2")
        #expect(error.message.parts.contains(.command(.login, [.input(.credential, "pc_handle0000000000001")])))
        #expect(state.users == users && state.currentUID == "uid-1")
        #expect(state.pendingCredentials.first?.reason == .credentialAlreadyInUse)
        #expect(state.pendingCredentials.first?.conflictingUID == "uid-2")
    }

    @Test("link otherwise adds the identity; the user's own email and name are never overwritten")
    func linkAdds() throws {
        var state = try signedIn()
        var other = credential(provider: "oidc.b", subject: "b-1", email: "lovelace@home.example")
        other.profile.displayName = "Countess"
        other.profile.photoURL = "https://home.example/ada.png"
        let user = try AccountRules.link(&state, with: other, context: context()).get()
        #expect(user.providerData.map(\.providerID) == ["oidc.a", "oidc.b"])
        #expect(user.email == "ada@example.com" && user.displayName == "Ada")
        #expect(user.photoURL == "https://home.example/ada.png", "a field the user lacks is filled")
        #expect(user.providerData[1].profile.email == "lovelace@home.example")
        #expect(user.lastAuthAt == now && state.users[0] == user)
    }

    @Test("link --pending adds the saved identity and uses the pending credential up")
    func linkPending() throws {
        var state = try signedIn()
        _ = AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())
        let pending = try #require(state.pendingCredentials.first)
        let user = try AccountRules.link(&state, with: pending.credential, context: context(), pendingHandle: pending.handle).get()
        #expect(user.providerData.map(\.providerID) == ["oidc.a", "oidc.b"])
        #expect(state.pendingCredentials.isEmpty)
        // Afterwards the oidc.b identity signs in to the same user.
        try AccountRules.signOut(&state, all: false)
        #expect(try signIn(&state, credential(provider: "oidc.b", subject: "b-1")).user.uid == "uid-1")
    }

    // MARK: reauth

    @Test("reauth with another account of the same provider: user-mismatch, state unchanged")
    func reauthMismatch() throws {
        var state = try signedIn()
        let before = state
        #expect { try AccountRules.reauthenticate(&state, with: self.credential(subject: "someone-else"), now: self.now) } throws: {
            ($0 as? AuthError)?.code == .userMismatch
        }
        #expect(state == before)
    }

    @Test("reauth with a provider the user does not have: no-such-provider, before any flow")
    func reauthUnknownProvider() throws {
        let state = try signedIn()
        #expect { try AccountRules.checkCanReauthenticate(state, providerID: "oidc.b") } throws: {
            ($0 as? AuthError)?.code == .noSuchProvider
        }
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.checkCanReauthenticate(AccountState(), providerID: "oidc.a") }
    }

    @Test("reauth replaces the tokens and moves lastAuthAt, not lastSignInAt")
    func reauth() throws {
        var state = try signedIn()
        var fresh = credential()
        fresh.tokens.accessToken = "at-fresh"
        let later = now.addingTimeInterval(600)
        let user = try AccountRules.reauthenticate(&state, with: fresh, now: later)
        #expect(user.lastAuthAt == later && user.lastSignInAt == now)
        #expect(user.providerData[0].tokens?.accessToken == "at-fresh")
    }

    // MARK: unlink

    @Test("unlink a provider that is not linked: no-such-provider")
    func unlinkUnknown() throws {
        var state = try signedIn()
        #expect { try AccountRules.unlink(&state, providerID: "oidc.b") } throws: {
            ($0 as? AuthError)?.code == .noSuchProvider
        }
        #expect(throws: AuthError.noCurrentUser) {
            var empty = AccountState()
            try AccountRules.unlink(&empty, providerID: "oidc.a")
        }
    }

    @Test("unlink removes the identity and its tokens; the last identity cannot be unlinked")
    func unlink() throws {
        var state = try signedIn()
        #expect { try AccountRules.unlink(&state, providerID: "oidc.a") } throws: { ($0 as? AuthError)?.code == .invalidArgument }
        _ = try AccountRules.link(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context()).get()
        state.users[0].lastProviderID = "oidc.b"
        let (user, removed) = try AccountRules.unlink(&state, providerID: "oidc.b")
        #expect(removed.federatedID == "b-1")
        #expect(user.providerData.map(\.providerID) == ["oidc.a"] && user.lastProviderID == "oidc.a")
        // The unlinked identity is unknown again: it meets the email rule, not the old user.
        #expect(refusal(AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())) != nil)
    }

    // MARK: users delete

    @Test("users delete more than 5 minutes after the last sign-in: requires-recent-login")
    func deleteNeedsRecentLogin() throws {
        var state = try signedIn()
        let before = state
        #expect { try AccountRules.deleteUser(&state, uid: nil, now: self.now.addingTimeInterval(301)) } throws: {
            ($0 as? AuthError)?.code == .requiresRecentLogin
        }
        #expect(state == before)
    }

    @Test("users delete within 5 minutes removes the user, its pending credentials, and ends the session")
    func delete() throws {
        var state = try signedIn()
        _ = AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())
        #expect(state.pendingCredentials.count == 1)
        let deleted = try AccountRules.deleteUser(&state, uid: nil, now: now.addingTimeInterval(299))
        #expect(deleted.uid == "uid-1")
        #expect(state.users.isEmpty && state.currentUID == nil && state.pendingCredentials.isEmpty)
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.deleteUser(&state, uid: nil, now: self.now) }
    }

    // MARK: pending credentials

    @Test("a pending credential expires after one hour, and an unknown handle is refused")
    func pendingExpiry() throws {
        var state = try signedIn()
        _ = AccountRules.signIn(&state, with: credential(provider: "oidc.b", subject: "b-1"), context: context())
        let handle = try #require(state.pendingCredentials.first?.handle)
        _ = try AccountRules.pendingCredential(handle, in: state, now: now.addingTimeInterval(3599))
        #expect { try AccountRules.pendingCredential(handle, in: state, now: self.now.addingTimeInterval(3600)) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential
        }
        #expect { try AccountRules.pendingCredential("pc_unknown00000000000", in: state, now: self.now) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument
        }
        #expect { try AccountRules.pendingCredential("../../etc", in: state, now: self.now) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument
        }
        // Expired pending credentials are removed by the next operation that writes.
        try signIn(&state, credential(), at: now.addingTimeInterval(7200))
        #expect(state.pendingCredentials.isEmpty)
    }

    // MARK: profiles, signout, use

    @Test("a stored display name is never overwritten by a later sign-in; the identity's own profile follows the provider")
    func profileMerge() throws {
        var state = try signedIn()
        var renamed = credential()
        renamed.profile.displayName = "Someone Else"
        renamed.profile.email = nil
        try signIn(&state, renamed)
        #expect(state.users[0].displayName == "Ada")
        #expect(state.users[0].providerData[0].profile.displayName == "Someone Else")
        #expect(state.users[0].providerData[0].profile.email == "ada@example.com", "a claim no longer sent keeps its stored value")
    }

    @Test("a later verification of the user's own email marks it verified")
    func emailVerifiedLater() throws {
        var state = AccountState()
        try signIn(&state, credential(verified: false), uid: "uid-1")
        #expect(!state.users[0].emailVerified)
        try signIn(&state, credential(verified: true))
        #expect(state.users[0].emailVerified)
    }

    @Test("signout drops tokens and the current user, and keeps the user and identities")
    func signOut() throws {
        var state = try signedIn()
        try AccountRules.signOut(&state, all: false)
        #expect(state.currentUID == nil)
        #expect(state.users.count == 1 && state.users[0].providerData.count == 1 && state.users[0].providerData[0].tokens == nil)
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.signOut(&state, all: false) }
    }

    @Test("signout --all drops every user's tokens")
    func signOutAll() throws {
        var state = AccountState()
        try signIn(&state, credential(subject: "a", verified: false), uid: "uid-a")
        try signIn(&state, credential(subject: "b", verified: false), uid: "uid-b")
        try AccountRules.signOut(&state, all: true)
        #expect(state.users.allSatisfy { $0.providerData.allSatisfy { $0.tokens == nil } })
    }

    @Test("users use switches to a signed-in user and refuses unknown or signed-out ones")
    func use() throws {
        var state = AccountState()
        try signIn(&state, credential(subject: "a", verified: false), uid: "uid-a")
        try signIn(&state, credential(subject: "b", verified: false), uid: "uid-b")
        try AccountRules.use(&state, uid: "uid-a")
        #expect(state.currentUID == "uid-a")
        #expect(throws: AuthError.self) { try AccountRules.use(&state, uid: "nobody") }
        try AccountRules.signOut(&state, all: true)
        #expect { try AccountRules.use(&state, uid: "uid-b") } throws: { ($0 as? AuthError)?.code == .noCurrentUser }
    }

    // MARK: consent (docs/apple.md, Apple's private relay)

    @Test("linking a private-relay identity, or linking anything to a user that has one, needs consent")
    func consent() throws {
        var relay = credential(provider: "apple.com", subject: "001.apple", email: "x1y2@privaterelay.appleid.com")
        relay.profile.isPrivateEmail = true
        var state = try signedIn()
        let before = state
        #expect { try AccountRules.link(&state, with: relay, context: self.context()) } throws: {
            ($0 as? AuthError)?.code == .consentRequired
        }
        #expect(state == before)
        _ = try AccountRules.link(&state, with: relay, context: context(), consent: true).get()

        // The other direction: a user signed in with the private-relay identity links another provider.
        var other = AccountState()
        try signIn(&other, relay, uid: "uid-relay")
        #expect(throws: AuthError.self) { try AccountRules.checkConsentPossible(other) }
        #expect {
            try AccountRules.link(&other, with: self.credential(provider: "oidc.b", subject: "b"), context: self.context())
        } throws: {
            ($0 as? AuthError)?.code == .consentRequired
        }
        _ = try AccountRules.link(&other, with: credential(provider: "oidc.b", subject: "b"), context: context(), consent: true).get()
        #expect(other.users[0].providerData.count == 2)
        // Nothing private on either side: no consent needed.
        #expect(AccountRules.consentReason(linking: credential(provider: "oidc.c").profile, to: try signedIn().users[0]) == nil)
        try AccountRules.checkConsentPossible(try signedIn())
    }
}
