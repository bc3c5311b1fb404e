import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// The port a registered client's redirect URI names (docs/resources.md): one free when it is
/// registered, and, when another program holds it at a later sign-in, a new registration on
/// another — for the clients authctl registered, never for one a person configured.
@Suite("Resources: the registered redirect URI's port")
struct RegisteredPortTests {
    static let resource = "https://api.example.com/mcp"

    /// The resource, its server (which registers clients) and nothing else; counts registrations.
    final class Server: @unchecked Sendable {
        let registrations = Mutex<[[String: JSONValue]]>([])
        var transport: StubTransport {
            StubTransport { request in
                switch request.url.absoluteString {
                case RegisteredPortTests.resource:
                    return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
                case "https://api.example.com/.well-known/oauth-protected-resource/mcp":
                    let body = #"{"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as.example"]}"#
                    return HTTPResponse(status: 200, body: Data(body.utf8))
                case "https://as.example/.well-known/oauth-authorization-server":
                    let body = #"""
                        {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token",
                         "registration_endpoint": "https://as.example/register", "code_challenge_methods_supported": ["S256"]}
                        """#
                    return HTTPResponse(status: 200, body: Data(body.utf8))
                case "https://as.example/register":
                    let count = self.registrations.withLock {
                        $0.append(request.body.flatMap { JSONValue.object(from: $0) } ?? [:])
                        return $0.count
                    }
                    return HTTPResponse(
                        status: 201, body: Data(#"{"client_id": "dyn-\#(count)", "token_endpoint_auth_method": "none"}"#.utf8))
                default:
                    return HTTPResponse(status: 404)
                }
            }
        }
    }

    /// A sign-in whose listener finds the client's port taken the first time (`taken`), then
    /// signs in; records the redirect URI of each attempt's provider.
    final class PortTakenIssuer: CredentialIssuing, @unchecked Sendable {
        let taken: UInt16
        let attempts = Mutex<[String]>([])
        init(taken: UInt16) { self.taken = taken }

        func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
            let count = attempts.withLock {
                $0.append(provider.id.rawValue)
                return $0.count
            }
            if count == 1 { throw AuthError.portInUse("the port \(taken) on 127.0.0.1 is already in use", port: taken) }
            var credential = Credential(
                providerID: provider.id.rawValue, issuer: "https://as.example", federatedID: "", profile: Profile(),
                tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: []),
                claims: IDTokenClaims(raw: [:]))
            credential.resource = URL(string: RegisteredPortTests.resource)
            credential.hasIdentity = false
            return credential
        }
    }

    func signIn(_ server: Server, config: String, issuer: PortTakenIssuer, freePorts: [UInt16]) -> (ResourceSignIn, ConfigStore) {
        let store = ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8)))
        let ports = Mutex(freePorts)
        let signIn = ResourceSignIn(
            transport: server.transport, configStore: store, issuer: issuer, accounts: FakeAccountStore(), clock: FixedClock(),
            secrets: MemoryRegistrationSecrets(), prompt: RecordingTerminal(),
            freePort: { ports.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        return (signIn, store)
    }

    @Test("a client registered now names a port free now in its redirect URI")
    func registeredOnAFreePort() async throws {
        let server = Server()
        let (signIn, store) = signIn(
            server, config: #"{"version": 1, "providers": {}}"#, issuer: PortTakenIssuer(taken: 0), freePorts: [50123])
        // The issuer's first attempt fails (taken: 0 is no real port): registered again on the next free one.
        let output = try await signIn.run(.init(resource: Self.resource, options: FlowOptions()))
        let uris = server.registrations.withLock { $0.map { $0["redirect_uris"] } }
        #expect(uris.first == .array([.string("http://127.0.0.1/callback"), .string("http://127.0.0.1:50123/callback")]))
        #expect(try store.provider(try ProviderID(parsing: output.providerID)).redirectURI?.hasPrefix("http://127.0.0.1:") == true)
    }

    @Test("the port of a client authctl registered is taken: it is registered again on a free one, and the sign-in goes on")
    func takenPortRegistersAgain() async throws {
        let server = Server()
        let config = #"""
            {"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "dyn-0", "issuer": "https://as.example",
             "redirectUri": "http://127.0.0.1:50500/callback", "registeredFor": ["https://api.example.com/mcp"]}}}
            """#
        let issuer = PortTakenIssuer(taken: 50500)
        let (signIn, store) = signIn(server, config: config, issuer: issuer, freePorts: [50777])
        let output = try await signIn.run(.init(resource: Self.resource, options: FlowOptions()))
        #expect(output.portTaken == 50500 && output.registeredProvider && output.providerID == "oidc.as-example")
        #expect(issuer.attempts.withLock { $0 } == ["oidc.as-example", "oidc.as-example"], "one sign-in again, under the same name")
        let saved = try store.provider(try ProviderID(parsing: "oidc.as-example"))
        #expect(saved.clientID == "dyn-1" && saved.redirectURI == "http://127.0.0.1:50777/callback")
    }

    @Test("without a free port known, the new registration's port is another than the taken one")
    func takenPortWithoutAFreeOne() async throws {
        let server = Server()
        let taken = UInt16(truncatingIfNeeded: ResourceClients.registeredPort(for: "https://as.example"))
        let config = #"""
            {"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "dyn-0", "issuer": "https://as.example",
             "redirectUri": "http://127.0.0.1:\#(taken)/callback", "registeredFor": ["https://api.example.com/mcp"]}}}
            """#
        let (signIn, store) = signIn(server, config: config, issuer: PortTakenIssuer(taken: taken), freePorts: [])
        _ = try await signIn.run(.init(resource: Self.resource, options: FlowOptions()))
        let redirectURI = try #require(try store.provider(try ProviderID(parsing: "oidc.as-example")).redirectURI)
        let port = try #require(URL(string: redirectURI)?.port)
        #expect(port != Int(taken) && (49152...65535).contains(port))
    }

    @Test("the port of a provider a person configured is taken: the error stands, nothing is registered")
    func configuredClientKeepsItsPort() async throws {
        let server = Server()
        let config = #"""
            {"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "mine", "issuer": "https://as.example",
             "redirectUri": "http://127.0.0.1:50600/callback"}}}
            """#
        let (signIn, store) = signIn(server, config: config, issuer: PortTakenIssuer(taken: 50600), freePorts: [50777])
        let named = try ProviderID(parsing: "oidc.as")
        await #expect {
            _ = try await signIn.run(.init(resource: Self.resource, options: FlowOptions(), provider: named, consented: true))
        } throws: {
            ($0 as? AuthError)?.portInUse == 50600
        }
        #expect(server.registrations.withLock { $0.isEmpty })
        #expect(try store.provider(try ProviderID(parsing: "oidc.as")).clientID == "mine")
    }
}
