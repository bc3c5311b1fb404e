import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Where a resource's sign-in keeps its grant (docs/resources.md): under the person the
/// server signed in, by the account rules, and never as anyone's last login.
extension ResourceBorrowingTests {
    @Test("C3: a grant kept for the current user leaves its last login (lastSignInAt, lastProviderID) as it was")
    func lastLoginUnchanged() async throws {
        // The resource's own server, on the resource's origin: nothing is borrowed.
        let config =
            #"{"version": 1, "providers": {"oidc.api": {"id": "oidc.api", "clientId": "c", "issuer": "https://api.example.com/oauth"}}}"#
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada()]), clock: clock)
        let issuer = StaticCredentialIssuer([grantCredential(provider: "oidc.api", issuer: "https://api.example.com/oauth")])
        let output = try await signIn(accounts, issuer, config: config, servers: ["https://api.example.com/oauth"]).run(
            .init(resource: Self.resource, options: FlowOptions()))
        #expect(output.user.uid == "ada")
        #expect(output.owner == .currentUser, "said, not silent: the server named nobody")
        let user = try #require(accounts.keystore.state.currentUser)
        #expect(user.resourceGrants.count == 1)
        #expect(user.lastSignInAt == earlier, "a resource's sign-in is not the user's last login")
        #expect(user.lastProviderID == "oidc.corp")
    }

    @Test("C3: with an ID token of an identity linked to another user, the grant goes to that user, whose last login stays")
    func identityOwnerLastLogin() async throws {
        let config =
            #"{"version": 1, "providers": {"oidc.api": {"id": "oidc.api", "clientId": "c", "issuer": "https://api.example.com/oauth"}}}"#
        let identity = LinkedIdentity(
            providerID: "oidc.api", issuer: "https://api.example.com/oauth", federatedID: "sub-9", profile: Profile(), linkedAt: earlier,
            tokens: nil)
        var bob = ada()
        bob.uid = "bob"
        bob.lastProviderID = "oidc.api"
        bob.providerData = [identity]
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada(), bob]), clock: clock)
        var credential = grantCredential(provider: "oidc.api", issuer: "https://api.example.com/oauth")
        credential.hasIdentity = true
        credential.federatedID = "sub-9"
        credential.tokens.idToken = "it"
        let output = try await signIn(
            accounts, StaticCredentialIssuer([credential]), config: config, servers: ["https://api.example.com/oauth"]
        )
        .run(.init(resource: Self.resource, options: FlowOptions()))
        #expect(output.user.uid == "bob")
        #expect(output.owner == .identity)
        let state = accounts.keystore.state
        #expect(state.users.first { $0.uid == "ada" }?.resourceGrants.isEmpty == true, "not silently under the current user")
        #expect(state.users.first { $0.uid == "bob" }?.resourceGrants.count == 1)
        #expect(state.users.first { $0.uid == "bob" }?.lastSignInAt == earlier)
    }
}
