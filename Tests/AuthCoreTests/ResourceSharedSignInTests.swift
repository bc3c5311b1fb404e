import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// One sign-in for several resources behind one authorization server (docs/resources.md,
/// "Several resources, one sign-in"): every resource on the one authorization request, a grant
/// per resource, and the sign-in's one refresh token held by the first grant, which the
/// others name (`refreshTokenOf`), so that a server that rotates refresh tokens strands none.
@Suite("Resources: one sign-in for several resources")
struct ResourceSharedSignInTests {
    static let mcp = "https://api.example.com/mcp"
    static let docs = "https://files.example.com/docs"
    static let elsewhere = "https://other.example.com/api"
    static let provider = try? ProviderID(parsing: "oidc.as")
    let clock = FixedClock()

    static let serverDocument = #"""
        {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token",
         "code_challenge_methods_supported": ["S256"]}
        """#

    /// Three resources: two of `as.example`, one of `as2.example`.
    let transport = StubTransport { request in
        func metadata(_ resource: String, _ server: String, _ scopes: String) -> HTTPResponse {
            let body = #"{"resource": "\#(resource)", "authorization_servers": ["\#(server)"], "scopes_supported": [\#(scopes)]}"#
            return HTTPResponse(status: 200, body: Data(body.utf8))
        }
        switch request.url.absoluteString {
        case "https://api.example.com/.well-known/oauth-protected-resource/mcp":
            return metadata(ResourceSharedSignInTests.mcp, "https://as.example", #""read""#)
        case "https://files.example.com/.well-known/oauth-protected-resource/docs":
            return metadata(ResourceSharedSignInTests.docs, "https://as.example", #""files", "read""#)
        case "https://other.example.com/.well-known/oauth-protected-resource/api":
            return metadata(ResourceSharedSignInTests.elsewhere, "https://as2.example", #""read""#)
        case "https://as.example/.well-known/oauth-authorization-server":
            return HTTPResponse(status: 200, body: Data(ResourceSharedSignInTests.serverDocument.utf8))
        case "https://as2.example/.well-known/oauth-authorization-server":
            let document = ResourceSharedSignInTests.serverDocument.replacingOccurrences(of: "as.example", with: "as2.example")
            return HTTPResponse(status: 200, body: Data(document.utf8))
        case ResourceSharedSignInTests.mcp, ResourceSharedSignInTests.docs, ResourceSharedSignInTests.elsewhere:
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
        default:
            return HTTPResponse(status: 404)
        }
    }

    var credential: Credential {
        var credential = Credential(
            providerID: "oidc.as", issuer: "https://as.example", federatedID: "", profile: Profile(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["read", "files"]),
            claims: IDTokenClaims(raw: [:]))
        credential.resource = URL(string: Self.mcp)
        credential.hasIdentity = false
        return credential
    }

    func signIn(_ accounts: any CredentialAccountStore, issuer: any CredentialIssuing) -> ResourceSignIn {
        let config = #"{"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://as.example"}}}"#
        return ResourceSignIn(
            transport: transport, configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8))), issuer: issuer,
            accounts: accounts, clock: clock, secrets: MemoryRegistrationSecrets(), prompt: RecordingTerminal())
    }

    @Test("two resources of one server: one sign-in, a grant for each, the refresh token in the first alone, in one change")
    func twoResources() async throws {
        let accounts = FakeAccountStore(clock: clock)
        let issuer = StaticCredentialIssuer([credential])
        let output = try await signIn(accounts, issuer: issuer).run(
            .init(resource: Self.mcp, moreResources: [Self.docs], options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(issuer.providers == ["oidc.as"], "one browser sign-in")
        #expect(output.grants.map(\.resource) == [Self.mcp, Self.docs])
        let grants = try #require(accounts.keystore.state.currentUser?.resourceGrants)
        #expect(grants.map(\.resource) == [Self.mcp, Self.docs])
        #expect(grants[0].tokens?.refreshToken == "rt" && grants[0].refreshTokenOf == nil)
        #expect(grants[1].tokens?.refreshToken == nil && grants[1].refreshTokenOf == Self.mcp, "one refresh token in one place")
        #expect(grants[1].tokens?.accessToken == "at" && grants[1].tokens?.scopes == ["read", "files"])
        // Each grant's tokens go to its own resource, never to the other's origin.
        let docsOrigins = grants[1].binding.origins.map(\.description)
        #expect(docsOrigins.contains("https://files.example.com:443") && !docsOrigins.contains("https://api.example.com:443"))
        let mcpOrigins = grants[0].binding.origins.map(\.description)
        #expect(mcpOrigins.contains("https://api.example.com:443") && !mcpOrigins.contains("https://files.example.com:443"))
        #expect(accounts.operations.count == 1, "both grants in one change of the keystore")
    }

    @Test(
        "a client registered now for a sign-in for several resources is registered for each: a later sign-in to one alone needs no consent")
    func registeredForAll() async throws {
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let fixtures = ResourceClientsTests()
        let client = try await ResourceClients(
            configStore: ConfigStore(storage: storage), transport: fixtures.registrar(), secrets: MemoryRegistrationSecrets(),
            clock: FixedClock()
        )
        .client(
            for: try fixtures.server(), resource: try ResourceIdentifier(parsing: Self.mcp),
            also: [try ResourceIdentifier(parsing: Self.docs)], clientMetadataURL: nil)
        #expect(client.registered && client.config.registeredFor == [Self.mcp, Self.docs])
        let saved = try ConfigStore(storage: storage).load().providers[client.config.id]
        #expect(saved?.registeredFor == [Self.mcp, Self.docs])
        #expect(!Self.borrowed(saved, Self.docs), "a later login of the second resource alone asks no consent")
    }

    static func borrowed(_ config: ProviderConfig?, _ resource: String) -> Bool {
        guard let config, let identifier = try? ResourceIdentifier(parsing: resource) else { return true }
        return ResourceClients.Client(config: config, registered: false).isBorrowed(for: identifier)
    }

    @Test("a provider the person configured is not marked as registered for the resources it was lent to")
    func configuredStaysBorrowed() async throws {
        let configStore = ConfigStore(
            storage: InMemoryConfigStorage(
                bytes: Data(
                    #"{"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://as.example"}}}"#.utf8)))
        let signIn = ResourceSignIn(
            transport: transport, configStore: configStore, issuer: StaticCredentialIssuer([credential]),
            accounts: FakeAccountStore(clock: clock), clock: clock, secrets: MemoryRegistrationSecrets(), prompt: RecordingTerminal())
        _ = try await signIn.run(
            .init(resource: Self.mcp, moreResources: [Self.docs], options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(try configStore.load().providers["oidc.as"]?.registeredFor == nil)
    }

    @Test("the resources' scopes are asked together, each once")
    func scopesTogether() async throws {
        let accounts = FakeAccountStore(clock: clock)
        let recorder = RecordingIssuer(credential)
        _ = try await signIn(accounts, issuer: recorder).run(
            .init(resource: Self.mcp, moreResources: [Self.docs], options: FlowOptions(), provider: Self.provider, consented: true))
        let options = try #require(recorder.options)
        #expect(options.scopes == ["read", "files"])
        #expect(options.resource?.absoluteString == Self.mcp && options.moreResources.map(\.absoluteString) == [Self.docs])
    }

    @Test("resources of different servers: refused before any sign-in, naming the next step; nothing kept")
    func differentServers() async throws {
        let accounts = FakeAccountStore(clock: clock)
        let issuer = StaticCredentialIssuer([credential])
        let error = await #expect(throws: AuthError.self) {
            try await signIn(accounts, issuer: issuer).run(
                .init(resource: Self.mcp, moreResources: [Self.elsewhere], options: FlowOptions(), provider: Self.provider, consented: true)
            )
        }
        #expect(error?.code == .invalidArgument)
        let message = error?.message.description ?? ""
        #expect(message.contains("as2.example") && message.contains("login \(Self.elsewhere)"))
        #expect(issuer.providers.isEmpty && accounts.operations.isEmpty)
    }

    @Test("the same resource twice is refused")
    func sameResourceTwice() async throws {
        let accounts = FakeAccountStore(clock: clock)
        await #expect(throws: AuthError.self) {
            try await signIn(accounts, issuer: StaticCredentialIssuer([credential])).run(
                .init(resource: Self.mcp, moreResources: [Self.mcp], options: FlowOptions(), provider: Self.provider, consented: true))
        }
        #expect(accounts.operations.isEmpty)
    }
}

/// A credential issuer that keeps the flow options it was asked with.
final class RecordingIssuer: CredentialIssuing, @unchecked Sendable {
    private let lock = NSLock()
    private let credential: Credential
    private var asked: FlowOptions?

    init(_ credential: Credential) { self.credential = credential }

    var options: FlowOptions? { lock.withLock { asked } }

    func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
        lock.withLock {
            if case .interactive(let options) = source { asked = options }
            return credential
        }
    }
}
