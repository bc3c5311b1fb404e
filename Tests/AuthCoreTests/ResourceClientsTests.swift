import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// Registration secrets in memory.
final class MemoryRegistrationSecrets: RegistrationSecrets, @unchecked Sendable {
    private let tokens = Mutex<[String: String]>([:])
    private let uris = Mutex<[String: URL]>([:])
    private let clientSecrets = Mutex<[String: RegisteredClientSecret]>([:])
    func store(_ token: String?, clientSecret: RegisteredClientSecret?, for providerID: String, clientURI: URL?) throws {
        tokens.withLock { $0[providerID] = token }
        uris.withLock { $0[providerID] = clientURI }
        clientSecrets.withLock { $0[providerID] = clientSecret }
    }
    func clientSecret(for providerID: String) throws -> RegisteredClientSecret? { clientSecrets.withLock { $0[providerID] } }
    func token(for providerID: String) throws -> String? { tokens.withLock { $0[providerID] } }
    func clientURI(for providerID: String) throws -> URL? { uris.withLock { $0[providerID] } }
    func remove(for providerID: String) throws {
        _ = tokens.withLock { $0.removeValue(forKey: providerID) }
        _ = uris.withLock { $0.removeValue(forKey: providerID) }
        _ = clientSecrets.withLock { $0.removeValue(forKey: providerID) }
    }
}

/// Which client a resource's sign-in uses (docs/resources.md): a configured one for the
/// issuer, a client ID metadata document, or one registered now (RFC 7591).
@Suite("Resources: the client at the authorization server")
struct ResourceClientsTests {
    static var resource: ResourceIdentifier { get throws { try ResourceIdentifier(parsing: "https://api.example.com/mcp") } }

    func server(registration: Bool = true, cimd: Bool = false) throws -> AuthorizationServerMetadata {
        let document = DiscoveryDocument(
            issuer: "https://as.example", authorizationEndpoint: URL(string: "https://as.example/authorize")!,
            tokenEndpoint: URL(string: "https://as.example/token")!, jwksURI: URL(string: "https://as.example/jwks")!)
        return AuthorizationServerMetadata(
            document: document, registrationEndpoint: registration ? URL(string: "https://as.example/register") : nil,
            clientIDMetadataDocumentSupported: cimd, source: URL(string: "https://as.example/.well-known/oauth-authorization-server")!)
    }

    func registrar() -> StubTransport {
        StubTransport { request in
            guard request.url.path == "/register" else { return HTTPResponse(status: 404) }
            return HTTPResponse(
                status: 201,
                body: Data(
                    #"{"client_id": "dyn-1", "token_endpoint_auth_method": "none", "registration_access_token": "rat", "registration_client_uri": "https://as.example/register/dyn-1"}"#
                        .utf8))
        }
    }

    @Test("a provider configured for the issuer is used, and nothing is registered")
    func configured() async throws {
        let storage = InMemoryConfigStorage(
            bytes: Data(
                #"{"version": 1, "providers": {"oidc.mine": {"id": "oidc.mine", "clientId": "c", "issuer": "https://as.example"}}}"#.utf8))
        let transport = registrar()
        let client = try await ResourceClients(
            configStore: ConfigStore(storage: storage), transport: transport, secrets: MemoryRegistrationSecrets(), clock: FixedClock()
        )
        .client(for: try server(), resource: try Self.resource, clientMetadataURL: nil)
        #expect(client.config.id == "oidc.mine" && !client.registered)
        #expect(transport.requests.isEmpty)
        #expect(client.isBorrowed(for: try Self.resource), "configured by the person, for a resource on another origin")
        #expect(!client.isBorrowed(for: try ResourceIdentifier(parsing: "https://as.example/api")), "the resource on its server's origin")
    }

    @Test("a provider of another issuer is never used: a client is registered and saved under the host's name")
    func registered() async throws {
        let storage = InMemoryConfigStorage(
            bytes: Data(
                #"{"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "c", "issuer": "https://elsewhere.example"}}}"#
                    .utf8))
        let secrets = MemoryRegistrationSecrets()
        let client = try await ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar(), secrets: secrets, clock: FixedClock()
        )
        .client(for: try server(), resource: try Self.resource, clientMetadataURL: nil)
        #expect(client.registered)
        #expect(client.config.id == "oidc.as-example-2")
        #expect(client.config.clientID == "dyn-1" && client.config.issuer == "https://as.example")
        #expect(client.config.metadataURL == "https://as.example/.well-known/oauth-authorization-server")
        #expect(client.config.registeredFor == ["https://api.example.com/mcp"], "the resource's own client")
        #expect(!client.isBorrowed(for: try Self.resource))
        #expect(try secrets.token(for: "oidc.as-example-2") == "rat")
        let saved = String(decoding: storage.contents ?? Data(), as: UTF8.self)
        #expect(saved.contains("dyn-1") && !saved.contains("rat\""), "the registration access token is not in config.json")
    }

    @Test(
        "registration asks for the loopback URI on any port and one exact port (servers that match exactly: the MCP SDK's), and the sign-ins use that one"
    )
    func exactRedirectURI() async throws {
        let transport = registrar()
        let client = try await ResourceClients(
            configStore: ConfigStore(storage: InMemoryConfigStorage()), transport: transport, secrets: MemoryRegistrationSecrets(),
            clock: FixedClock()
        ).client(for: try server(), resource: try Self.resource, clientMetadataURL: nil)
        let sent = try #require(transport.requests.first?.body)
        let body = try #require(JSONValue.object(from: sent))
        guard case .array(let uris)? = body["redirect_uris"] else {
            Issue.record("redirect_uris, got \(String(describing: body["redirect_uris"]))")
            return
        }
        let exact = try #require(client.config.redirectURI)
        #expect(uris == [.string("http://127.0.0.1/callback"), .string(exact)])
        let port = try #require(URL(string: exact)?.port)
        #expect(exact == "http://127.0.0.1:\(port)/callback" && (61000...65535).contains(port), "above outgoing connections' ports")
        // Without a port known to be free, the server's first preferred one; another server likely another.
        #expect(Int(ResourceClients.preferredPorts(for: "https://as.example")[0]) == port)
        #expect(ResourceClients.preferredPorts(for: "https://other.example")[0] != UInt16(port))
    }

    @Test("a client ID metadata document's URL is the client id where the server supports them")
    func clientMetadataDocument() async throws {
        let transport = registrar()
        let client = try await ResourceClients(
            configStore: ConfigStore(storage: InMemoryConfigStorage()), transport: transport, secrets: MemoryRegistrationSecrets(),
            clock: FixedClock()
        ).client(for: try server(cimd: true), resource: try Self.resource, clientMetadataURL: "https://app.example/client.json")
        #expect(client.config.clientID == "https://app.example/client.json")
        #expect(transport.requests.isEmpty)
    }

    @Test("without registration or a configured client, the error says how to add one")
    func noWay() async throws {
        await #expect(throws: AuthError.self) {
            _ = try await ResourceClients(
                configStore: ConfigStore(storage: InMemoryConfigStorage()), transport: registrar(), secrets: MemoryRegistrationSecrets(),
                clock: FixedClock()
            ).client(for: try server(registration: false), resource: try Self.resource, clientMetadataURL: nil)
        }
    }

    @Test("a client registered for one resource is borrowed for another resource on another origin, and preferred for its own")
    func registeredForAnother() async throws {
        let storage = InMemoryConfigStorage(
            bytes: Data(
                #"""
                {"version": 1, "providers": {
                  "oidc.a": {"id": "oidc.a", "clientId": "c", "issuer": "https://as.example"},
                  "oidc.b": {"id": "oidc.b", "clientId": "d", "issuer": "https://as.example", "registeredFor": ["https://api.example.com/mcp"]}}}
                """#.utf8))
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar(), secrets: MemoryRegistrationSecrets(), clock: FixedClock())
        let resource = try Self.resource
        let own = try await clients.client(for: try server(), resource: resource, clientMetadataURL: nil)
        #expect(own.config.id == "oidc.b" && !own.isBorrowed(for: resource))
        #expect(own.isBorrowed(for: try ResourceIdentifier(parsing: "https://other.example.com/mcp")))
    }

    @Test("--provider names a client of the resource's server, or is refused naming the issuer it is for")
    func namedProvider() async throws {
        let storage = InMemoryConfigStorage(
            bytes: Data(
                #"{"version": 1, "providers": {"oidc.corp": {"id": "oidc.corp", "clientId": "c", "issuer": "https://corp.example"}}}"#.utf8)
        )
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar(), secrets: MemoryRegistrationSecrets(), clock: FixedClock())
        let error = #expect(throws: AuthError.self) { try clients.configured(try ProviderID(parsing: "oidc.corp"), for: try server()) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("https://corp.example") == true && error?.message.contains("https://as.example") == true)
    }
}

/// `providers remove` of a registered client (RFC 7592 §2.3): the registration access token
/// goes only to the registration URL kept with it, never to the one config.json names now.
@Suite("Resources: deleting a registration")
struct ClientRegistrationRemovalTests {
    @Test("the token goes to the registration URL stored with it, whatever config.json says now; nothing to the other server")
    func storedURIOnly() async throws {
        let secrets = MemoryRegistrationSecrets()
        try await secrets.store("rat", for: "oidc.as", clientURI: URL(string: "https://as.example/register/dyn-1"))
        let transport = StubTransport { _ in HTTPResponse(status: 204) }
        var config = ProviderConfig(id: "oidc.as", clientID: "dyn-1", issuer: "https://as.example")
        config.registrationClientURI = "https://evil.example/register/dyn-1"
        let outcome = await ClientRegistrationRemoval(transport: transport, secrets: secrets).remove(config)
        #expect(outcome == .deleted)
        #expect(transport.requests.map(\.url.absoluteString) == ["https://as.example/register/dyn-1"])
        #expect(try secrets.token(for: "oidc.as") == nil)
    }

    @Test("a client secret kept without a registration access token goes with the provider, nothing sent")
    func secretWithoutToken() async throws {
        let secrets = MemoryRegistrationSecrets()
        try await secrets.store(
            nil, clientSecret: RegisteredClientSecret(secret: "s", issuer: "https://as.example", clientID: "dyn-1"), for: "oidc.as",
            clientURI: nil)
        let transport = StubTransport { _ in HTTPResponse(status: 204) }
        var config = ProviderConfig(id: "oidc.as", clientID: "dyn-1", issuer: "https://as.example")
        config.registeredFor = ["https://api.example.com/mcp"]
        #expect(await ClientRegistrationRemoval(transport: transport, secrets: secrets).remove(config) == .notRegistered)
        #expect(transport.requests.isEmpty)
        #expect(try secrets.clientSecret(for: "oidc.as") == nil)
    }

    @Test("a token kept before its URL was recorded is sent nowhere, and forgotten")
    func unboundTokenNotSent() async throws {
        let secrets = MemoryRegistrationSecrets()
        try await secrets.store("rat", for: "oidc.as", clientURI: nil)
        let transport = StubTransport { _ in HTTPResponse(status: 204) }
        var config = ProviderConfig(id: "oidc.as", clientID: "dyn-1", issuer: "https://as.example")
        config.registrationClientURI = "https://evil.example/register/dyn-1"
        #expect(await ClientRegistrationRemoval(transport: transport, secrets: secrets).remove(config) == .unbound)
        #expect(transport.requests.isEmpty)
        #expect(try secrets.token(for: "oidc.as") == nil)
    }
}
