import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// The port a registered client's redirect URI names (docs/resources.md): one free when it is
/// registered, of the issuer's preferred ports above the outgoing connections' range; when
/// another program holds it at a later sign-in, a refusal that says what helps, nothing changed.
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

    /// A sign-in whose listener finds the port `taken` in use the first time (nil: never), then
    /// signs in; records each attempt's provider.
    final class PortTakenIssuer: CredentialIssuing, @unchecked Sendable {
        let taken: UInt16?
        let attempts = Mutex<[String]>([])
        init(taken: UInt16?) { self.taken = taken }

        func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
            let count = attempts.withLock {
                $0.append(provider.id.rawValue)
                return $0.count
            }
            if count == 1, let taken { throw AuthError.portInUse("the port \(taken) on 127.0.0.1 is already in use", port: taken) }
            var credential = Credential(
                providerID: provider.id.rawValue, issuer: "https://as.example", federatedID: "", profile: Profile(),
                tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: []),
                claims: IDTokenClaims(raw: [:]))
            credential.resource = URL(string: RegisteredPortTests.resource)
            credential.hasIdentity = false
            return credential
        }
    }

    /// `free`: the preferred ports that are free (nil: no port known free).
    func signIn(_ server: Server, config: String, issuer: PortTakenIssuer, free: Set<UInt16>?) -> (ResourceSignIn, ConfigStore) {
        let store = ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8)))
        let signIn = ResourceSignIn(
            transport: server.transport, configStore: store, issuer: issuer, accounts: FakeAccountStore(), clock: FixedClock(),
            secrets: MemoryRegistrationSecrets(), prompt: RecordingTerminal(),
            freePort: { preferred in free.flatMap { free in preferred.first(where: free.contains) } })
        return (signIn, store)
    }

    @Test("a client registered now names the first of its issuer's preferred ports that is free, above outgoing connections' ports")
    func registeredOnAFreePort() async throws {
        let preferred = ResourceClients.preferredPorts(for: "https://as.example")
        #expect(preferred.count == 8 && Set(preferred).count == 8 && preferred.allSatisfy { (61000...65535).contains($0) })
        let server = Server()
        let (signIn, store) = signIn(
            server, config: #"{"version": 1, "providers": {}}"#, issuer: PortTakenIssuer(taken: nil), free: [preferred[2], preferred[5]])
        let output = try await signIn.run(.init(resource: Self.resource, options: FlowOptions()))
        let uris = server.registrations.withLock { $0.map { $0["redirect_uris"] } }
        #expect(uris == [.array([.string("http://127.0.0.1/callback"), .string("http://127.0.0.1:\(preferred[2])/callback")])])
        #expect(try store.provider(try ProviderID(parsing: output.providerID)).redirectURI == "http://127.0.0.1:\(preferred[2])/callback")
    }

    static let registered = #"""
        {"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "dyn-0", "issuer": "https://as.example",
         "redirectUri": "http://127.0.0.1:61500/callback", "registeredFor": ["https://api.example.com/mcp"]}}}
        """#

    @Test("the port of a client authctl registered is taken: a refusal naming it and what helps; nothing registered or changed")
    func takenPortRefused() async throws {
        let server = Server()
        let (signIn, store) = signIn(server, config: Self.registered, issuer: PortTakenIssuer(taken: 61500), free: nil)
        let before = try store.load()
        await #expect {
            _ = try await signIn.run(.init(resource: Self.resource, options: FlowOptions()))
        } throws: { error in
            guard let error = error as? AuthError, error.code == .invalidArgument, error.portInUse == 61500 else { return false }
            let words = "\(error.message)"
            return words.contains("61500") && words.contains("oidc.as-example") && words.contains("‹providersRemove oidc.as-example›")
                && words.contains("‹login https://api.example.com/mcp›")
        }
        #expect(server.registrations.withLock { $0.isEmpty })
        #expect(try store.load() == before)
    }

    @Test("another port taken (--listen-address), or a provider a person configured: the listener's own refusal")
    func otherPortsKeepTheirError() async throws {
        var options = FlowOptions()
        options.listenAddress = try ListenAddress(parsing: "127.0.0.1:47001")
        let (viaOption, _) = signIn(Server(), config: Self.registered, issuer: PortTakenIssuer(taken: 47001), free: nil)
        await #expect {
            _ = try await viaOption.run(.init(resource: Self.resource, options: options))
        } throws: { !"\(($0 as? AuthError)?.message ?? "")".contains("providersRemove") }
        let configured = #"""
            {"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "mine", "issuer": "https://as.example",
             "redirectUri": "http://127.0.0.1:50600/callback"}}}
            """#
        let server = Server()
        let (signIn, store) = signIn(server, config: configured, issuer: PortTakenIssuer(taken: 50600), free: [61001])
        let named = try ProviderID(parsing: "oidc.as")
        await #expect {
            _ = try await signIn.run(.init(resource: Self.resource, options: FlowOptions(), provider: named, consented: true))
        } throws: { error in
            (error as? AuthError)?.portInUse == 50600 && !"\((error as? AuthError)?.message ?? "")".contains("providersRemove")
        }
        #expect(server.registrations.withLock { $0.isEmpty })
        #expect(try store.provider(named).clientID == "mine")
    }
}
