import AuthCore
import Foundation
import Testing

@Suite("Account rules (SPEC §5)")
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

    @Test("an unknown identity creates a new user that becomes current")
    func newUser() {
        var state = AccountState()
        let result = AccountRules.signIn(&state, with: credential(), now: now, newUID: "uid-new")
        #expect(result.isNewUser)
        #expect(state.currentUID == "uid-new")
        #expect(state.users.first?.providerData.first?.federatedID == "sub-1")
        #expect(state.users.first?.email == "ada@example.com")
    }

    @Test("an identity already linked signs in to its user: same uid, tokens replaced, times updated")
    func knownIdentity() {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(), now: now, newUID: "uid-1")
        _ = try? AccountRules.signOut(&state, all: false)
        var second = credential()
        second.tokens.accessToken = "at-new"
        let later = now.addingTimeInterval(100)
        let result = AccountRules.signIn(&state, with: second, now: later, newUID: "uid-unused")
        #expect(!result.isNewUser)
        #expect(state.users.count == 1 && state.currentUID == "uid-1")
        #expect(state.users[0].providerData[0].tokens?.accessToken == "at-new")
        #expect(state.users[0].lastSignInAt == later && state.users[0].lastAuthAt == later && state.users[0].createdAt == now)
    }

    @Test("identities are matched by issuer and subject, never by email")
    func notByEmail() {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(subject: "sub-1", verified: false), now: now, newUID: "uid-1")
        let result = AccountRules.signIn(&state, with: credential(subject: "sub-2", verified: false), now: now, newUID: "uid-2")
        #expect(result.isNewUser)
        #expect(state.users.map(\.uid) == ["uid-1", "uid-2"])
    }

    @Test("the same subject at another issuer is another identity")
    func issuerIsPartOfTheKey() {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(), now: now, newUID: "uid-1")
        var other = credential()
        other.issuer = "https://elsewhere.example"
        #expect(AccountRules.signIn(&state, with: other, now: now, newUID: "uid-2").isNewUser)
    }

    @Test("a stored display name is never overwritten by a later sign-in")
    func profileMerge() {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(), now: now, newUID: "uid-1")
        var renamed = credential()
        renamed.profile.displayName = "Someone Else"
        _ = AccountRules.signIn(&state, with: renamed, now: now, newUID: "x")
        #expect(state.users[0].displayName == "Ada")
        #expect(state.users[0].providerData[0].profile.displayName == "Someone Else")
    }

    @Test("signout drops tokens and the current user, and keeps the user and identities")
    func signOut() throws {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(), now: now, newUID: "uid-1")
        try AccountRules.signOut(&state, all: false)
        #expect(state.currentUID == nil)
        #expect(state.users.count == 1 && state.users[0].providerData.count == 1 && state.users[0].providerData[0].tokens == nil)
        #expect(throws: AuthError.noCurrentUser) { try AccountRules.signOut(&state, all: false) }
    }

    @Test("signout --all drops every user's tokens")
    func signOutAll() throws {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(subject: "a"), now: now, newUID: "uid-a")
        _ = AccountRules.signIn(&state, with: credential(subject: "b"), now: now, newUID: "uid-b")
        try AccountRules.signOut(&state, all: true)
        #expect(state.users.allSatisfy { $0.providerData.allSatisfy { $0.tokens == nil } })
    }

    @Test("users use switches to a signed-in user and refuses unknown or signed-out ones")
    func use() throws {
        var state = AccountState()
        _ = AccountRules.signIn(&state, with: credential(subject: "a"), now: now, newUID: "uid-a")
        _ = AccountRules.signIn(&state, with: credential(subject: "b"), now: now, newUID: "uid-b")
        try AccountRules.use(&state, uid: "uid-a")
        #expect(state.currentUID == "uid-a")
        #expect(throws: AuthError.self) { try AccountRules.use(&state, uid: "nobody") }
        try AccountRules.signOut(&state, all: true)
        #expect { try AccountRules.use(&state, uid: "uid-b") } throws: { ($0 as? AuthError)?.code == .noCurrentUser }
    }
}
