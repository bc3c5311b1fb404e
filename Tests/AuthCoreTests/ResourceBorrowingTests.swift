import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A resource cannot borrow an identity it was not given (docs/resources.md, docs/security.md):
/// a provider the person configured for the resource's authorization server (their company's
/// IdP) is used for a resource on another origin only with their consent; a step-up through it
/// asks again; the grant is kept under the person the server signed in, and the sign-in does not
/// touch anyone's last login.
@Suite("Resources: borrowed providers need consent; the grant's owner")
struct ResourceBorrowingTests {
    static let resource = "https://api.example.com/mcp"
    let earlier = Date(timeIntervalSince1970: 1_700_000_000)
    let clock = FixedClock()

    /// The resource lists `servers`; each answers RFC 8414 metadata for its own issuer.
    static func transport(servers: [String] = ["https://corp.example"]) -> StubTransport {
        StubTransport { request in
            let url = request.url.absoluteString
            if url == resource { return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"]) }
            if url == "https://api.example.com/.well-known/oauth-protected-resource/mcp" {
                let list = servers.map { "\"\($0)\"" }.joined(separator: ", ")
                let body = #"{"resource": "\#(resource)", "authorization_servers": [\#(list)], "scopes_supported": ["read"]}"#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            }
            for issuer in servers {
                guard let issuerURL = URL(string: issuer), let host = issuerURL.host else { continue }
                if url == "https://\(host)/.well-known/oauth-authorization-server\(issuerURL.path)" {
                    let document = #"""
                        {"issuer": "\#(issuer)", "authorization_endpoint": "\#(issuer)/authorize", "token_endpoint": "\#(issuer)/token",
                         "jwks_uri": "\#(issuer)/jwks", "code_challenge_methods_supported": ["S256"]}
                        """#
                    return HTTPResponse(status: 200, body: Data(document.utf8))
                }
            }
            return HTTPResponse(status: 404)
        }
    }

    static let corpConfig =
        #"{"version": 1, "providers": {"oidc.corp": {"id": "oidc.corp", "clientId": "corp-cli", "issuer": "https://corp.example"}}}"#

    func signIn(
        _ accounts: FakeAccountStore, _ issuer: StaticCredentialIssuer, config: String = corpConfig,
        prompt: RecordingTerminal = RecordingTerminal(),
        servers: [String] = ["https://corp.example"]
    ) -> ResourceSignIn {
        ResourceSignIn(
            transport: Self.transport(servers: servers), configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8))),
            issuer: issuer, accounts: accounts, clock: clock,
            secrets: MemoryRegistrationSecrets(), prompt: prompt)
    }

    func grantCredential(provider: String = "oidc.corp", issuer: String = "https://corp.example", scopes: [String] = ["read"]) -> Credential
    {
        var credential = Credential(
            providerID: provider, issuer: issuer, federatedID: "", profile: Profile(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: scopes),
            claims: IDTokenClaims(raw: [:]))
        credential.resource = URL(string: Self.resource)
        credential.hasIdentity = false
        return credential
    }

    func ada(grants: [ResourceGrant] = []) -> User {
        var user = User(
            uid: "ada", email: "ada@corp.example", emailVerified: true, displayName: nil, photoURL: nil, createdAt: earlier,
            lastSignInAt: earlier, lastAuthAt: earlier, lastProviderID: "oidc.corp", providerData: [])
        for grant in grants { user.store(grant) }
        return user
    }

    @Test("B1: the company's provider, configured for the resource's server on another origin, is not used without consent")
    func borrowedWithoutConsent() async throws {
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada()]), clock: clock)
        let before = accounts.keystore.state
        let issuer = StaticCredentialIssuer([grantCredential()])
        let error = await #expect(throws: AuthError.self) {
            try await signIn(accounts, issuer).run(.init(resource: Self.resource, options: FlowOptions()))
        }
        #expect(error?.code == .consentRequired, "\(String(describing: error))")
        for named in ["oidc.corp", Self.resource, "read"] {
            #expect(error?.message.contains(named) == true, "names \(named): \(String(describing: error))")
        }
        #expect(issuer.providers.isEmpty, "no browser, no sign-in")
        #expect(accounts.keystore.state == before)
    }

    @Test("B3: a step-up through a borrowed provider (wider scopes than the grant holds) asks again; without consent nothing happens")
    func stepUpWithoutConsent() async throws {
        let grant = ResourceGrant(
            resource: Self.resource, issuer: "https://corp.example", providerID: "oidc.corp", grantedAt: earlier,
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["read"]))
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada(grants: [grant])]), clock: clock)
        let issuer = StaticCredentialIssuer([grantCredential(scopes: ["read", "write"])])
        let error = await #expect(throws: AuthError.self) {
            try await signIn(accounts, issuer).run(
                .init(resource: Self.resource, issuer: "https://corp.example", options: FlowOptions(scopes: ["read", "write"])))
        }
        #expect(error?.code == .consentRequired, "\(String(describing: error))")
        #expect(error?.message.contains("read write") == true, "\(String(describing: error))")
        #expect(issuer.providers.isEmpty)
        #expect(accounts.keystore.state.users.first?.resourceGrants.first?.tokens?.scopes == ["read"])
    }

    @Test("B1: --provider is the person's consent: the sign-in goes through that provider, and nobody is asked")
    func namedProvider() async throws {
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada()]), clock: clock)
        let issuer = StaticCredentialIssuer([grantCredential()])
        let prompt = RecordingTerminal(interactive: true)
        let output = try await signIn(accounts, issuer, prompt: prompt).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: try ProviderID(parsing: "oidc.corp"), consented: true))
        #expect(output.providerID == "oidc.corp" && issuer.providers == ["oidc.corp"])
        #expect(prompt.lines.isEmpty)
    }

    @Test("B1: on a terminal the person is asked, naming provider, server, resource and scopes; yes signs in, no refuses")
    func askedOnTerminal() async throws {
        for answer in [true, false] {
            let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada()]), clock: clock)
            let issuer = StaticCredentialIssuer([grantCredential()])
            let prompt = RecordingTerminal(interactive: true, answers: [answer])
            let run = { try await signIn(accounts, issuer, prompt: prompt).run(.init(resource: Self.resource, options: FlowOptions())) }
            if answer {
                _ = try await run()
                #expect(issuer.providers == ["oidc.corp"])
            } else {
                let error = await #expect(throws: AuthError.self) { try await run() }
                #expect(error?.code == .consentRequired && error?.message.names(input: .provider) == true)
                #expect(issuer.providers.isEmpty)
            }
            let question = try #require(prompt.lines.first { $0.hasPrefix("? ") })
            for named in ["oidc.corp", "https://corp.example", Self.resource, "read"] { #expect(question.contains(named), "\(question)") }
        }
    }

    @Test("B3: on a terminal, a step-up through a borrowed provider asks again, naming the wider scopes")
    func stepUpAsked() async throws {
        let accounts = FakeAccountStore(AccountState(currentUID: "ada", users: [ada()]), clock: clock)
        let issuer = StaticCredentialIssuer([grantCredential(scopes: ["read", "write"])])
        let prompt = RecordingTerminal(interactive: true, answers: [true])
        _ = try await signIn(accounts, issuer, prompt: prompt).run(
            .init(
                resource: Self.resource, issuer: "https://corp.example", options: FlowOptions(scopes: ["read", "write"]),
                provider: try ProviderID(parsing: "oidc.corp")))
        #expect(prompt.lines.contains { $0.hasPrefix("? ") && $0.contains("read write") })
        #expect(accounts.keystore.state.currentUser?.resourceGrants.first?.tokens?.scopes == ["read", "write"])
    }
}
