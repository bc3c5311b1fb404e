import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A resource whose grant's authorization server is no longer the one it names (docs/resources.md,
/// "When the authorization server changes"): the sign-in that re-discovers it moves to the new
/// server only with the person's consent; without it nothing is signed in and the keystore is as
/// it was.
@Suite("Resources: moving to another authorization server needs consent")
struct ResourceServerMoveTests {
    static let resource = ResourceBorrowingTests.resource
    static let newServer = "https://api.example.com/as"
    static let oldServer = "https://old.example"
    static let config =
        #"{"version": 1, "providers": {"oidc.new": {"id": "oidc.new", "clientId": "new-cli", "issuer": "https://api.example.com/as"}}}"#
    let clock = FixedClock()

    func signIn(_ accounts: FakeAccountStore, _ issuer: StaticCredentialIssuer, prompt: RecordingTerminal) -> ResourceSignIn {
        ResourceSignIn(
            transport: ResourceBorrowingTests.transport(servers: [Self.newServer]),
            configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(Self.config.utf8))),
            issuer: issuer, accounts: accounts, clock: clock, secrets: MemoryRegistrationSecrets(), prompt: prompt)
    }

    func credential() -> Credential {
        var credential = Credential(
            providerID: "oidc.new", issuer: Self.newServer, federatedID: "", profile: Profile(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["read"]),
            claims: IDTokenClaims(raw: [:]))
        credential.resource = URL(string: Self.resource)
        credential.hasIdentity = false
        return credential
    }

    func input(movingFrom: String?) throws -> ResourceSignIn.Input {
        .init(resource: Self.resource, options: FlowOptions(), provider: try ProviderID(parsing: "oidc.new"), movingFrom: movingFrom)
    }

    @Test("M1: on a terminal the person is asked, naming resource, old and new server; yes signs in at the new one")
    func yesMoves() async throws {
        let accounts = FakeAccountStore(AccountState(), clock: clock)
        let issuer = StaticCredentialIssuer([credential()])
        let prompt = RecordingTerminal(interactive: true, answers: [true])
        let output = try await signIn(accounts, issuer, prompt: prompt).run(try input(movingFrom: Self.oldServer))
        #expect(output.grant.issuer == Self.newServer)
        #expect(issuer.providers == ["oidc.new"])
        let question = try #require(prompt.lines.first { $0.hasPrefix("? ") })
        for named in [Self.resource, Self.oldServer, Self.newServer] { #expect(question.contains(named), "\(question)") }
    }

    @Test("M2: a no, or nobody at the terminal: consent-required naming `authctl login URL`; nothing signed in, keystore unchanged")
    func refusedWithoutConsent() async throws {
        for (interactive, answers) in [(true, [false]), (false, [])] {
            let accounts = FakeAccountStore(AccountState(), clock: clock)
            let before = try accounts.accounts()
            let issuer = StaticCredentialIssuer([credential()])
            let prompt = RecordingTerminal(interactive: interactive, answers: answers)
            let error = await #expect(throws: AuthError.self) {
                try await signIn(accounts, issuer, prompt: prompt).run(try input(movingFrom: Self.oldServer))
            }
            #expect(error?.code == .consentRequired)
            #expect(error?.message.names(.login) == true && error?.message.description.contains("login \(Self.resource)") == true)
            #expect(error?.message.description.contains(Self.newServer) == true)
            #expect(issuer.providers.isEmpty)
            #expect(try accounts.accounts() == before)
        }
    }

    @Test("M3: the same server as the grant's, or `login URL` run by the person (no grant to move from): nobody is asked")
    func sameServerNotAsked() async throws {
        for movingFrom in [Self.newServer, nil] {
            let accounts = FakeAccountStore(AccountState(), clock: clock)
            let issuer = StaticCredentialIssuer([credential()])
            let prompt = RecordingTerminal(interactive: false)
            _ = try await signIn(accounts, issuer, prompt: prompt).run(try input(movingFrom: movingFrom))
            #expect(issuer.providers == ["oidc.new"])
        }
    }
}
