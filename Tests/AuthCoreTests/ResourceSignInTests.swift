import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Where `login URL` keeps what it got (docs/resources.md): the grant under the current user,
/// a new user when nobody is signed in, the identity's user when an ID token came.
@Suite("Resources: the sign-in's grant and the account rules")
struct ResourceSignInTests {
    static let resource = "https://api.example.com/mcp"
    /// The configured provider of the resource's server, named as `--provider oidc.as` does.
    static let provider = try? ProviderID(parsing: "oidc.as")
    let clock = FixedClock()

    static let serverDocument = #"""
        {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token",
         "jwks_uri": "https://as.example/jwks", "code_challenge_methods_supported": ["S256"]}
        """#

    /// The resource and its server; nothing else answers.
    let transport = StubTransport { request in
        switch request.url.absoluteString {
        case ResourceSignInTests.resource:
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
        case "https://api.example.com/.well-known/oauth-protected-resource/mcp":
            let body =
                #"{"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as.example"], "scopes_supported": ["read"]}"#
            return HTTPResponse(status: 200, body: Data(body.utf8))
        case "https://as.example/.well-known/oauth-authorization-server":
            return HTTPResponse(status: 200, body: Data(ResourceSignInTests.serverDocument.utf8))
        default:
            return HTTPResponse(status: 404)
        }
    }

    func signIn(_ accounts: any CredentialAccountStore, _ credential: Credential) -> ResourceSignIn {
        let config = #"{"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://as.example"}}}"#
        return ResourceSignIn(
            transport: transport, configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8))),
            issuer: StaticCredentialIssuer([credential]), accounts: accounts, clock: clock,
            secrets: MemoryRegistrationSecrets(), prompt: RecordingTerminal())
    }

    var plainGrant: Credential {
        var credential = Credential(
            providerID: "oidc.as", issuer: "https://as.example", federatedID: "", profile: Profile(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["read"]),
            claims: IDTokenClaims(raw: [:]))
        credential.resource = URL(string: Self.resource)
        credential.hasIdentity = false
        return credential
    }

    func user(_ uid: String, identities: [LinkedIdentity] = []) -> User {
        User(
            uid: uid, email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: clock.now(), lastSignInAt: clock.now(),
            lastAuthAt: clock.now(), lastProviderID: nil, providerData: identities)
    }

    @Test("nobody signed in: a new user holds the grant and becomes current")
    func newUser() async throws {
        let accounts = FakeAccountStore(clock: clock)
        let output = try await signIn(accounts, plainGrant).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(output.isNewUser && output.owner == .newUser)
        let state = accounts.keystore.state
        #expect(state.currentUID == output.user.uid)
        #expect(state.currentUser?.resourceGrants.first?.resource == Self.resource)
        #expect(state.currentUser?.resourceGrants.first?.tokens?.refreshToken == "rt")
        #expect(
            accounts.operations == [.storeResourceGrant(resource: Self.resource, identityProviderID: nil)],
            "no sign-in runs without an identity: the grant alone is kept")
    }

    @Test("a signed-in user gets the grant, and a second sign-in replaces it rather than adding one")
    func currentUser() async throws {
        let accounts = FakeAccountStore(AccountState(currentUID: "u1", users: [user("u1")]), clock: clock)
        _ = try await signIn(accounts, plainGrant).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        _ = try await signIn(accounts, plainGrant).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(accounts.keystore.state.users.count == 1)
        #expect(accounts.keystore.state.users.first?.resourceGrants.count == 1)
    }

    @Test("with an ID token of an identity already linked: the grant goes to its user, whose session stays as it was")
    func knownIdentity() async throws {
        let session = TokenSet(accessToken: "own-at", expiresAt: nil, refreshToken: "own-rt", idToken: "own-it", scopes: ["openid"])
        let identity = LinkedIdentity(
            providerID: "oidc.as", issuer: "https://as.example", federatedID: "sub-1", profile: Profile(), linkedAt: clock.now(),
            tokens: session)
        let accounts = FakeAccountStore(
            AccountState(currentUID: nil, users: [user("other"), user("owner", identities: [identity])]), clock: clock)
        var credential = plainGrant
        credential.hasIdentity = true
        credential.federatedID = "sub-1"
        credential.tokens.idToken = "new-it"
        let output = try await signIn(accounts, credential).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(output.user.uid == "owner")
        let owner = try #require(accounts.keystore.state.users.first { $0.uid == "owner" })
        #expect(owner.providerData.first?.tokens == session, "one refresh token in one place")
        #expect(owner.resourceGrants.first?.tokens?.refreshToken == "rt")
        #expect(owner.resourceGrants.first?.tokens?.idToken == nil)
        #expect(accounts.keystore.state.currentUID == "owner")
    }

    @Test("with an ID token of a new identity: the account rules make its user, with the ID token only")
    func newIdentity() async throws {
        let accounts = FakeAccountStore(clock: clock)
        var credential = plainGrant
        credential.hasIdentity = true
        credential.federatedID = "sub-2"
        credential.tokens.idToken = "it"
        let output = try await signIn(accounts, credential).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(output.isNewUser)
        #expect(accounts.operations == [.storeResourceGrant(resource: Self.resource, identityProviderID: "oidc.as")])
        let user = try #require(accounts.keystore.state.currentUser)
        #expect(user.providerData.first?.federatedID == "sub-2")
        #expect(user.providerData.first?.tokens?.refreshToken == nil && user.providerData.first?.tokens?.idToken == "it")
        #expect(user.resourceGrants.first?.tokens?.accessToken == "at")
    }
}
