import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

@testable import AuthCore

/// A client `login URL` registers (RFC 7591) at a server that issues it a secret, as the MCP
/// SDKs' servers do (docs/resources.md): the method asked for, the secret kept in the
/// keystore and used by the method the server chose, and a new registration once it expires.
@Suite("Resources: a registered client's secret")
struct RegisteredClientSecretTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static var resource: ResourceIdentifier { get throws { try ResourceIdentifier(parsing: "https://api.example.com/mcp") } }
    static let endpoint = URL(string: "https://as.example/register")!

    func server(methods: [String]?) -> AuthorizationServerMetadata {
        var document = DiscoveryDocument(
            issuer: "https://as.example", authorizationEndpoint: URL(string: "https://as.example/authorize")!,
            tokenEndpoint: URL(string: "https://as.example/token")!, jwksURI: nil)
        document.tokenEndpointAuthMethodsSupported = methods
        return AuthorizationServerMetadata(
            document: document, registrationEndpoint: Self.endpoint,
            source: URL(string: "https://as.example/.well-known/oauth-authorization-server")!)
    }

    /// A registration endpoint like the MCP SDK's: a secret for any method but `none`, a new
    /// client id each time, the secret expiring after `lifetime` seconds.
    final class Registrar: @unchecked Sendable {
        let count = Mutex(0)
        let lifetime: Int
        init(lifetime: Int = 0) { self.lifetime = lifetime }

        var transport: StubTransport {
            StubTransport { request in
                let asked = JSONValue.object(from: request.body ?? Data())?["token_endpoint_auth_method"]?.stringValue ?? "?"
                let n = self.count.withLock {
                    $0 += 1
                    return $0
                }
                let expires = self.lifetime == 0 ? 0 : Int(RegisteredClientSecretTests.now.timeIntervalSince1970) + self.lifetime
                let secret = asked == "none" ? "" : #", "client_secret": "s3cret-\#(n)", "client_secret_expires_at": \#(expires)"#
                return HTTPResponse(
                    status: 201, body: Data(#"{"client_id": "dyn-\#(n)", "token_endpoint_auth_method": "\#(asked)"\#(secret)}"#.utf8))
            }
        }
    }

    func response(_ json: String) -> HTTPResponse { HTTPResponse(status: 201, body: Data(json.utf8)) }

    @Test("the method asked for: none where the server takes it (or says nothing), else its first client-secret method")
    func methodAsked() {
        #expect(ClientRegistration.method(supported: nil) == "none")
        #expect(ClientRegistration.method(supported: ["client_secret_basic", "none"]) == "none")
        #expect(ClientRegistration.method(supported: ["client_secret_post", "client_secret_basic"]) == "client_secret_post")
        #expect(ClientRegistration.method(supported: ["private_key_jwt", "client_secret_basic"]) == "client_secret_basic")
        #expect(ClientRegistration.method(supported: ["private_key_jwt"]) == "none")
        let request = ClientRegistration(
            endpoint: Self.endpoint, redirectURIs: ["http://127.0.0.1/callback"], authMethod: "client_secret_post")
        #expect(JSONValue.object(from: request.httpRequest.body ?? Data())?["token_endpoint_auth_method"] == .string("client_secret_post"))
    }

    @Test("an answer with a secret is taken, with the method the server chose (basic when it names none)")
    func answerWithSecret() throws {
        let registration = ClientRegistration(endpoint: Self.endpoint, redirectURIs: [])
        let post = try registration.registered(
            response(
                #"{"client_id": "c", "client_secret": "s", "token_endpoint_auth_method": "client_secret_post", "client_secret_expires_at": 1790003600}"#
            ))
        #expect(post.clientSecret == "s" && post.authMethod == "client_secret_post" && post.clientSecretExpiresAt == 1_790_003_600)
        let unnamed = try registration.registered(response(#"{"client_id": "c", "client_secret": "s"}"#))
        #expect(unnamed.clientSecret == "s" && unnamed.authMethod == "client_secret_basic" && unnamed.clientSecretExpiresAt == 0)
        let publicClient = try registration.registered(
            response(#"{"client_id": "c", "client_secret": "s", "token_endpoint_auth_method": "none"}"#))
        #expect(publicClient.clientSecret == nil && publicClient.authMethod == "none", "a secret given to a public client is not kept")
    }

    @Test("an answer authctl cannot use is refused, naming what is wrong")
    func answerRefused() {
        let registration = ClientRegistration(endpoint: Self.endpoint, redirectURIs: [])
        for (json, named) in [
            (#"{"client_id": "c", "token_endpoint_auth_method": "private_key_jwt"}"#, "private_key_jwt"),
            (#"{"client_id": "c", "token_endpoint_auth_method": "client_secret_post"}"#, "no client_secret"),
            (#"{"client_id": "c", "client_secret": 7}"#, "client_secret"),
            (#"{"client_id": "c", "client_secret": "a\nb"}"#, "control characters"),
            (#"{"client_id": "c", "client_secret": "s", "client_secret_expires_at": "soon"}"#, "client_secret_expires_at"),
            (#"{"client_id": "c", "client_secret": "s", "client_secret_expires_at": 1e300}"#, "client_secret_expires_at"),
        ] {
            #expect {
                _ = try registration.registered(response(json))
            } throws: { error in
                (error as? AuthError)?.code == .providerNotConfigured && "\((error as? AuthError)?.message ?? "")".contains(named)
            }
        }
    }

    @Test("a server that issues secrets: the secret is kept in the secret store, config.json says only how it is sent")
    func keptAsSecret() async throws {
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let secrets = MemoryRegistrationSecrets()
        let registrar = Registrar(lifetime: 3600)
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar.transport, secrets: secrets, clock: FixedClock(Self.now))
        let client = try await clients.client(
            for: server(methods: ["client_secret_post", "client_secret_basic"]), resource: try Self.resource, clientMetadataURL: nil)
        #expect(client.registered && client.config.clientID == "dyn-1")
        #expect(client.config.tokenEndpointAuthMethod == "client_secret_post")
        #expect(client.config.clientSecretExpiresAt == 1_790_003_600)
        #expect(try secrets.clientSecret(for: client.config.id)?.secret == "s3cret-1")
        #expect(
            try secrets.clientSecret(for: client.config.id)?.belongs(issuer: client.config.issuer, clientID: client.config.clientID)
                == true, "bound to that issuer and client id")
        #expect(!String(decoding: storage.contents ?? Data(), as: UTF8.self).contains("s3cret"), "never in config.json")
        try ConfigStore(storage: storage).provider(ProviderID(parsing: client.config.id)).validate()
    }

    @Test("an expired secret, or one the keystore lost, makes the next sign-in register again under the same name")
    func registeredAgain() async throws {
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let secrets = MemoryRegistrationSecrets()
        let registrar = Registrar(lifetime: 3600)
        let clock = FixedClock(Self.now)
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar.transport, secrets: secrets, clock: clock)
        let server = server(methods: ["client_secret_basic"])
        let first = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        let again = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        #expect(again.config == first.config && !again.registered, "still valid: the same client")
        clock.advance(by: 3600)
        let renewed = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        #expect(renewed.config.id == first.config.id && renewed.config.clientID == "dyn-2")
        #expect(renewed.config.registeredFor == first.config.registeredFor)
        #expect(try secrets.clientSecret(for: first.config.id)?.secret == "s3cret-2")
        try secrets.remove(for: first.config.id)
        let restored = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        #expect(restored.config.clientID == "dyn-3")
        #expect(try secrets.clientSecret(for: first.config.id)?.secret == "s3cret-3")
        #expect(try ConfigStore(storage: storage).load().providers.count == 1)
    }

    @Test("the token endpoint gets the registered secret by the server's method; expired or missing, a clear error and nothing sent")
    func authenticates() async throws {
        let secrets = MemoryRegistrationSecrets()
        try secrets.store(
            nil, clientSecret: RegisteredClientSecret(secret: "s3cret", issuer: "https://as.example", clientID: "dyn-1"),
            for: "oidc.as-example",
            clientURI: nil)
        let clock = FixedClock(Self.now)
        let authenticator = ClientAuthenticator(
            clock: clock, random: SeededRandom(seed: 1), secrets: StaticSecrets(),
            transport: StubTransport { _ in throw AuthError.internalError("no requests here") }, registrations: secrets)
        var config = ProviderConfig(id: "oidc.as-example", clientID: "dyn-1", issuer: "https://as.example")
        config.registeredFor = ["https://api.example.com/mcp"]
        config.clientSecretExpiresAt = 1_790_003_600
        let document = server(methods: nil).document
        for (method, expected) in [
            ("client_secret_post", ClientAuthentication.post(secret: "s3cret")), ("client_secret_basic", .basic(secret: "s3cret")),
        ] {
            config.tokenEndpointAuthMethod = method
            let made = try await authenticator.authentication(
                for: .configured, provider: try ProviderRegistry.provider(for: config), discovery: document)
            #expect(made == expected)
        }
        clock.advance(by: 3600)
        await #expect {
            _ = try await authenticator.authentication(
                for: .configured, provider: try ProviderRegistry.provider(for: config), discovery: document)
        } throws: { "\(($0 as? AuthError)?.message ?? "")".contains("expired") }
        config.clientSecretExpiresAt = nil
        // config.json edited to name another issuer, or another client: the secret is not theirs.
        for (issuer, clientID) in [("https://evil.example", "dyn-1"), ("https://as.example", "dyn-other")] {
            var edited = config
            edited.issuer = issuer
            edited.clientID = clientID
            await #expect {
                _ = try await authenticator.authentication(
                    for: .configured, provider: try ProviderRegistry.provider(for: edited), discovery: document)
            } throws: { "\(($0 as? AuthError)?.message ?? "")".contains("holds no client secret") }
        }
        try secrets.remove(for: "oidc.as-example")
        await #expect {
            _ = try await authenticator.authentication(
                for: .configured, provider: try ProviderRegistry.provider(for: config), discovery: document)
        } throws: { "\(($0 as? AuthError)?.message ?? "")".contains("holds no client secret") }
    }

    @Test("config.json: the method only for a registered client without a secret of its own; the expiry only with it")
    func configRules() throws {
        var config = ProviderConfig(id: "oidc.as-example", clientID: "dyn-1", issuer: "https://as.example")
        config.tokenEndpointAuthMethod = "client_secret_post"
        #expect(throws: AuthError.self, "not registered by login URL") { try config.validate() }
        config.registeredFor = ["https://api.example.com/mcp"]
        try config.validate()
        config.clientSecretEnv = "MY_SECRET"
        #expect(throws: AuthError.self, "a secret of its own") { try config.validate() }
        config.clientSecretEnv = nil
        config.tokenEndpointAuthMethod = "tls_client_auth"
        #expect(throws: AuthError.self) { try config.validate() }
        config.tokenEndpointAuthMethod = nil
        config.clientSecretExpiresAt = 5
        #expect(throws: AuthError.self) { try config.validate() }
    }

    @Test("a client its server refused (invalid_client to a refresh) is registered again under the same name at the next sign-in")
    func refusedClientRegisteredAgain() async throws {
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let secrets = MemoryRegistrationSecrets()
        let registrar = Registrar()
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: registrar.transport, secrets: secrets, clock: FixedClock(Self.now))
        let server = server(methods: nil)
        let first = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        #expect(first.config.clientID == "dyn-1" && first.config.tokenEndpointAuthMethod == nil, "a public client")
        try await ConfigStore(storage: storage).update { $0.providers[first.config.id]?.clientRefusedAt = 1_790_000_000 }
        let again = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        #expect(again.registered && again.config.id == first.config.id && again.config.clientID == "dyn-2")
        #expect(again.config.clientRefusedAt == nil)
        #expect(try ConfigStore(storage: storage).load().providers[first.config.id]?.clientRefusedAt == nil)
        // A provider the person configured is never re-registered: the mark applies only to authctl's own.
        var mine = ProviderConfig(id: "oidc.mine", clientID: "c", issuer: "https://as.example")
        mine.clientRefusedAt = 5
        #expect(throws: AuthError.self) { try mine.validate() }
        // Nor a client ID metadata document's (its client id is the document's URL): registering would change its kind.
        var document = ProviderConfig(id: "oidc.doc", clientID: "https://app.example/client.json", issuer: "https://as.example")
        document.registeredFor = ["https://api.example.com/mcp"]
        #expect(!document.registeredDynamically)
        document.clientRefusedAt = 5
        #expect(throws: AuthError.self) { try document.validate() }
    }

    /// The attacker review of `login URL URL2`: registered again (its server forgot it), a client
    /// stayed "registered now" for every resource named, so one registered for the first alone
    /// was lent to a resource on another origin without the person's consent.
    @Test("registered again for a sign-in for several resources: lent without consent only to the resources it was registered for")
    func registeredAgainStaysBorrowed() async throws {
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let clients = ResourceClients(
            configStore: ConfigStore(storage: storage), transport: Registrar().transport, secrets: MemoryRegistrationSecrets(),
            clock: FixedClock(Self.now))
        let server = server(methods: nil)
        let first = try await clients.client(for: server, resource: try Self.resource, clientMetadataURL: nil)
        try await ConfigStore(storage: storage).update { $0.providers[first.config.id]?.clientRefusedAt = 1_790_000_000 }
        let elsewhere = try ResourceIdentifier(parsing: "https://files.example.org/docs")
        let again = try await clients.client(for: server, resource: try Self.resource, also: [elsewhere], clientMetadataURL: nil)
        #expect(again.config.clientID == "dyn-2")
        #expect(!again.isBorrowed(for: try Self.resource))
        #expect(again.isBorrowed(for: elsewhere), "another origin's resource needs the person's consent")
    }

    @Test("of two grants for one resource (its authorization server changed), requests use the newer")
    func newestGrantOfAResource() throws {
        var user = User(
            uid: "u", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: Self.now, lastSignInAt: Self.now,
            lastAuthAt: Self.now, lastProviderID: nil, providerData: [])
        let old = ResourceGrant(
            resource: "https://api.example.com/mcp", issuer: "https://old.example", providerID: "oidc.old", grantedAt: Self.now, tokens: nil
        )
        var moved = old
        moved.issuer = "https://new.example"
        moved.providerID = "oidc.new"
        moved.grantedAt = Self.now.addingTimeInterval(60)
        user.store(moved)
        user.store(old)
        let url = try #require(URL(string: "https://api.example.com/mcp/tools"))
        #expect(user.resourceGrant(for: url)?.issuer == "https://new.example")
        user.resourceGrants.reverse()
        #expect(user.resourceGrant(for: url)?.issuer == "https://new.example")
    }
}
