import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What the MCP authorization spec asks of a client that starts from a resource's URL
/// (docs/resources.md, "MCP and agents"), against a resource and its server in memory.
@Suite("Resources: the MCP authorization spec's client rules")
struct MCPAuthorizationTests {
    static let resource = "https://mcp.example.com/mcp"

    /// The resource's metadata names https://as.example; its RFC 8414 metadata is `server`.
    static func transport(server: String) -> StubTransport {
        StubTransport { request in
            switch request.url.absoluteString {
            case resource: return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
            case "https://mcp.example.com/.well-known/oauth-protected-resource/mcp":
                let body = #"{"resource": "\#(resource)", "authorization_servers": ["https://as.example"]}"#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            case "https://as.example/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(server.utf8))
            default: return HTTPResponse(status: 404)
            }
        }
    }

    static func server(_ extra: String) -> String {
        #"{"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token"\#(extra)}"#
    }

    @Test("PKCE: a server whose metadata does not list S256 is refused before anything is registered or opened")
    func pkceRequired() async throws {
        for extra in ["", #", "code_challenge_methods_supported": []"#, #", "code_challenge_methods_supported": ["plain"]"#] {
            let transport = Self.transport(server: Self.server(extra))
            let error = await #expect(throws: AuthError.self) {
                _ = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
            }
            #expect(error?.code == .providerNotConfigured)
            #expect("\(error?.message ?? "")".contains("S256"), "the error names what is missing")
        }
        let listed = Self.transport(server: Self.server(#", "code_challenge_methods_supported": ["plain", "S256"]"#))
        let found = try await ResourceDiscovery(transport: listed).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        #expect(found.server.document.codeChallengeMethodsSupported == ["plain", "S256"])
    }

    /// An MCP endpoint that challenges only a POST (`GET` is 405), its metadata at the URL its
    /// challenge names; `wellKnown`: what the well-known URLs answer (path-inserted, root).
    static func mcpEndpoint(
        challenge: String? = #"Bearer resource_metadata="https://mcp.example.com/meta/mcp", scope="mcp:tools""#,
        named: String =
            #"{"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://as.example"], "scopes_supported": ["mcp:tools", "mcp:admin"]}"#,
        pathInserted: String? = nil, root: String? = nil, get: Int = 405
    ) -> StubTransport {
        StubTransport { request in
            switch (request.method, request.url.absoluteString) {
            case ("GET", resource): return HTTPResponse(status: get)
            case ("POST", resource):
                guard let challenge else { return HTTPResponse(status: 400) }
                return HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge])
            case ("GET", "https://mcp.example.com/meta/mcp"): return HTTPResponse(status: 200, body: Data(named.utf8))
            case ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"):
                return pathInserted.map { HTTPResponse(status: 200, body: Data($0.utf8)) } ?? HTTPResponse(status: 404)
            case ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource"):
                return root.map { HTTPResponse(status: 200, body: Data($0.utf8)) } ?? HTTPResponse(status: 404)
            case ("GET", "https://as.example/.well-known/oauth-authorization-server"):
                return HTTPResponse(status: 200, body: Data(server(#", "code_challenge_methods_supported": ["S256"]"#).utf8))
            default: return HTTPResponse(status: 404)
            }
        }
    }

    @Test("discovery: a GET without a challenge is not the end; the 401 to MCP's POST of initialize names the metadata and the scope")
    func postChallenge() async throws {
        let transport = Self.mcpEndpoint()
        let found = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        #expect(found.metadata.resource.description == Self.resource)
        #expect(found.challengeScopes == ["mcp:tools"])
        let post = try #require(transport.requests.first { $0.method == "POST" })
        let body = try #require(JSONValue.object(from: post.body ?? Data()))
        #expect(body["method"] == .string("initialize") && body["jsonrpc"] == .string("2.0"))
        #expect(post.headers["Authorization"] == nil, "nothing secret in the probe")
        #expect(post.headers["Accept"]?.contains("text/event-stream") == true)
    }

    @Test("discovery: an MCP endpoint that serves POST only (its GET a 404, as an express app's) is sent MCP's POST")
    func postAfterNotFound() async throws {
        let transport = Self.mcpEndpoint(get: 404)
        let found = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        #expect(found.metadata.resource.description == Self.resource && found.challengeScopes == ["mcp:tools"])
        #expect(transport.requests.contains { $0.method == "POST" && $0.url.absoluteString == Self.resource })
        #expect(
            transport.requests.contains { $0.url.absoluteString == "https://mcp.example.com/meta/mcp" }, "the metadata the challenge names")
    }

    @Test("discovery: a resource that answers the GET (200) is never sent MCP's POST")
    func noPostToAnAnsweredGet() async throws {
        let own = #"{"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://as.example"]}"#
        let transport = StubTransport { request in
            switch (request.method, request.url.absoluteString) {
            case ("GET", Self.resource): return HTTPResponse(status: 200)
            case ("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"):
                return HTTPResponse(status: 200, body: Data(own.utf8))
            case ("GET", "https://as.example/.well-known/oauth-authorization-server"):
                return HTTPResponse(status: 200, body: Data(Self.server(#", "code_challenge_methods_supported": ["S256"]"#).utf8))
            default: return HTTPResponse(status: 404)
            }
        }
        _ = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        #expect(!transport.requests.contains { $0.method == "POST" })
    }

    @Test("discovery: no challenge at all: the path-inserted well-known URL, else the root one")
    func wellKnownFallbacks() async throws {
        let own = #"{"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://as.example"]}"#
        let origin = #"{"resource": "https://mcp.example.com", "authorization_servers": ["https://as.example"]}"#
        let resource = try ResourceIdentifier(parsing: Self.resource)
        let first = try await ResourceDiscovery(transport: Self.mcpEndpoint(challenge: nil, pathInserted: own, root: origin))
            .discover(resource, issuer: nil)
        #expect(first.metadata.resource.description == Self.resource && first.challengeScopes == nil)
        let rootOnly = try await ResourceDiscovery(transport: Self.mcpEndpoint(challenge: nil, root: origin)).discover(
            resource, issuer: nil)
        #expect(
            rootOnly.metadata.resource.description == "https://mcp.example.com", "the origin's metadata names the resource: used as it is")
        // Neither, nor any at the origin: MCP 2025-03-26's default endpoints (defaultEndpoints()).
        let none = try await ResourceDiscovery(transport: Self.mcpEndpoint(challenge: nil)).discover(resource, issuer: nil)
        #expect(none.server.defaultEndpoints)
    }

    @Test("RFC 9728 §3.3: a resource on another origin, or a path that is not a segment-prefix of the URL, is refused")
    func resourceCheck() async throws {
        let resource = try ResourceIdentifier(parsing: Self.resource)
        for named in [
            "https://other.example.com/mcp", "https://mcp.example.com/mc", "https://mcp.example.com/mcp/deeper",
            "http://mcp.example.com/mcp",
        ] {
            let document = #"{"resource": "\#(named)", "authorization_servers": ["https://as.example"]}"#
            await #expect(throws: AuthError.self, "\(named)") {
                _ = try await ResourceDiscovery(transport: Self.mcpEndpoint(named: document)).discover(resource, issuer: nil)
            }
        }
        let prefix = #"{"resource": "https://mcp.example.com/", "authorization_servers": ["https://as.example"]}"#
        let found = try await ResourceDiscovery(transport: Self.mcpEndpoint(named: prefix)).discover(resource, issuer: nil)
        #expect(found.metadata.resource.description == "https://mcp.example.com")
    }

    @Test("scopes (MCP's scope selection): those given, else the challenge's, else scopes_supported, else none")
    func scopeSelection() {
        #expect(ResourceScopes.first(given: ["a"], challenge: ["b"], supported: ["c"]) == ["a"])
        #expect(ResourceScopes.first(given: [], challenge: ["b"], supported: ["c"]) == ["b"])
        #expect(ResourceScopes.first(given: [], challenge: nil, supported: ["c", "d"]) == ["c", "d"])
        #expect(ResourceScopes.first(given: [], challenge: [], supported: ["c"]) == ["c"], "an empty scope parameter says nothing")
        #expect(ResourceScopes.first(given: [], challenge: nil, supported: nil) == [])
    }

    @Test("2025-03-26 servers: no resource metadata at all: the authorization server's metadata at the resource's origin")
    func legacyServer() async throws {
        let origin = "https://mcp.example.com"
        let document = #"""
            {"issuer": "https://mcp.example.com", "authorization_endpoint": "https://mcp.example.com/authorize",
             "token_endpoint": "https://mcp.example.com/token", "code_challenge_methods_supported": ["S256"]}
            """#
        let transport = StubTransport { request in
            switch (request.method, request.url.absoluteString) {
            case (_, Self.resource): return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            case ("GET", "https://mcp.example.com/.well-known/oauth-authorization-server"):
                return HTTPResponse(status: 200, body: Data(document.utf8))
            default: return HTTPResponse(status: 404)
            }
        }
        let resource = try ResourceIdentifier(parsing: Self.resource)
        let found = try await ResourceDiscovery(transport: transport).discover(resource, issuer: nil)
        #expect(found.server.document.issuer == origin && found.metadata.authorizationServers == [origin])
        #expect(found.metadata.resource == resource)
        let other = await #expect(throws: AuthError.self) {
            _ = try await ResourceDiscovery(transport: transport).discover(resource, issuer: "https://as.example")
        }
        #expect(other?.code == .invalidArgument, "--issuer must be the origin then")
        // A challenge that names metadata which is not there is not a 2025-03-26 server: refused.
        let named = StubTransport { request in
            request.url.absoluteString == Self.resource
                ? HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer resource_metadata="https://mcp.example.com/meta""#])
                : HTTPResponse(status: 404)
        }
        await #expect(throws: AuthError.self) { _ = try await ResourceDiscovery(transport: named).discover(resource, issuer: nil) }
    }

    @Test("2025-03-26 servers without any metadata: the default endpoints /authorize, /token, /register at the resource's origin")
    func defaultEndpoints() async throws {
        let resource = try ResourceIdentifier(parsing: Self.resource)
        let bare = StubTransport { request in
            request.url.absoluteString == Self.resource
                ? HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]) : HTTPResponse(status: 404)
        }
        let found = try await ResourceDiscovery(transport: bare).discover(resource, issuer: nil)
        #expect(found.server.defaultEndpoints)
        #expect(found.server.document.issuer == "https://mcp.example.com")
        #expect(found.server.document.authorizationEndpoint.absoluteString == "https://mcp.example.com/authorize")
        #expect(found.server.document.tokenEndpoint.absoluteString == "https://mcp.example.com/token")
        #expect(found.server.registrationEndpoint?.absoluteString == "https://mcp.example.com/register")
        #expect(found.server.document.jwksURI == nil && found.metadata.resource == resource)
        // Only when the origin's metadata is absent (404): a server that fails to answer is no
        // server without metadata.
        let failing = StubTransport { request in
            switch request.url.absoluteString {
            case Self.resource: return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            case "https://mcp.example.com/.well-known/oauth-authorization-server": return HTTPResponse(status: 500)
            default: return HTTPResponse(status: 404)
            }
        }
        await #expect(throws: AuthError.self) { _ = try await ResourceDiscovery(transport: failing).discover(resource, issuer: nil) }
    }

    @Test("a client saved for default endpoints keeps them (defaultEndpoints in config.json): its refreshes fetch no metadata")
    func defaultEndpointsKept() throws {
        var config = ProviderConfig(id: "oidc.mcp-example-com", clientID: "c1", issuer: "https://mcp.example.com")
        config.registeredFor = [Self.resource]
        config.defaultEndpoints = true
        try config.validate()
        let provider = try GenericOIDCProvider(id: try ProviderID(parsing: config.id), config: config)
        #expect(provider.documentedMetadata?.tokenEndpoint.absoluteString == "https://mcp.example.com/token")
        #expect(provider.documentedMetadata?.authorizationEndpoint.absoluteString == "https://mcp.example.com/authorize")
        let encoded = try JSONEncoder().encode(config)
        #expect(try JSONDecoder().decode(ProviderConfig.self, from: encoded) == config)
        var withPath = config
        withPath.issuer = "https://mcp.example.com/tenant"
        #expect(throws: AuthError.self, "the defaults are at an origin") { try withPath.validate() }
        var configured = ProviderConfig(id: "oidc.mine", clientID: "c1", issuer: "https://mcp.example.com")
        configured.defaultEndpoints = true
        #expect(throws: AuthError.self, "written by login URL only") { try configured.validate() }
    }
}

/// `login URL --client-credentials` (docs/resources.md, "Machines and CI"): the resource's
/// server discovered, the grant asked for the resource with the workload's own client, the
/// workload kept as a user holding the grant, and the grant run again to renew it.
@Suite("Resources: a workload signs in by the resource's URL")
struct ResourceWorkloadSignInTests {
    static let resource = MCPAuthorizationTests.resource

    final class Grants: @unchecked Sendable {
        let lock = NSLock()
        var forms: [[String: String]] = []
        var authorizations: [String] = []
    }

    static func transport(_ grants: Grants) -> StubTransport {
        let server = MCPAuthorizationTests.server(#", "code_challenge_methods_supported": ["S256"]"#)
        return StubTransport { request in
            switch request.url.absoluteString {
            case resource: return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
            case "https://mcp.example.com/.well-known/oauth-protected-resource/mcp":
                let body = #"{"resource": "\#(resource)", "authorization_servers": ["https://as.example"]}"#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            case "https://as.example/.well-known/oauth-authorization-server": return HTTPResponse(status: 200, body: Data(server.utf8))
            case "https://as.example/token": break
            default: return HTTPResponse(status: 404)
            }
            let pairs = FormURLEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)) ?? []
            let form = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            let count = grants.lock.withLock {
                grants.forms.append(form)
                grants.authorizations.append(request.headers["Authorization"] ?? "")
                return grants.forms.count
            }
            return HTTPResponse(
                status: 200, body: Data(#"{"access_token": "at-\#(count)", "token_type": "Bearer", "expires_in": 3600}"#.utf8))
        }
    }

    @Test(
        "the client-credentials grant asks for the resource with the workload's secret; the workload holds the grant; renewal runs the grant again"
    )
    func signsInAndRenews() async throws {
        let grants = Grants()
        let transport = Self.transport(grants)
        let keystore = InMemoryKeystore()
        let clock = FixedClock()
        let storage = InMemoryConfigStorage(bytes: Data(#"{"version": 1, "providers": {}}"#.utf8))
        let tokens = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(seed: 2), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets(["CI_SECRET": "s3cret"]))
        let signIn = ResourceWorkloadSignIn(
            transport: transport, configStore: ConfigStore(storage: storage), tokens: tokens, keystore: keystore, clock: clock,
            random: SeededRandom(seed: 3), secrets: MemoryRegistrationSecrets())
        let client = WorkloadClient(clientID: "ci-job", authentication: .secretEnvironment("CI_SECRET"))
        let output = try await signIn.run(.init(resource: Self.resource, client: client))
        #expect(output.user.kind == .workload && output.grant.resource == Self.resource && output.grant.issuer == "https://as.example")
        let form = try #require(grants.forms.first)
        #expect(form["grant_type"] == "client_credentials" && form["resource"] == Self.resource)
        #expect(grants.authorizations.first?.hasPrefix("Basic ") == true, "the workload's secret, by client_secret_basic")
        let state = try keystore.read()
        #expect(state.currentUser?.uid == output.user.uid)
        #expect(state.currentUser?.resourceGrants.first?.tokens?.accessToken == "at-1")
        #expect(state.currentUser?.resourceGrants.first?.tokens?.refreshToken == nil)
        // Renewal: the grant again, for the resource, with the same client; no refresh token needed.
        let renewed = try await ResourceTokens(keystore: keystore, configStore: ConfigStore(storage: storage), tokens: tokens, clock: clock)
            .token(for: try #require(URL(string: Self.resource)), forceRefresh: true)
        #expect(renewed.accessToken == "at-2" && renewed.refreshed)
        #expect(
            grants.forms.count == 2 && grants.forms[1]["grant_type"] == "client_credentials" && grants.forms[1]["resource"] == Self.resource
        )
    }
}
