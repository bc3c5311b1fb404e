import AuthCore
import AuthCoreTestSupport
import Crypto
import Foundation
import Testing

/// `authctl request`, `token --resource` and discovery with the fakes in memory: the grant's
/// token goes only to its resource, refreshes carry `resource`, step-ups are asked for.
@Suite("Resources: discovery, tokens and requests")
struct ResourceRequestTests {
    static let resource = "https://api.example.com/mcp"
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let clock = FixedClock(Date(timeIntervalSince1970: 1_790_000_000))

    static let serverDocument = #"""
        {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize", "token_endpoint": "https://as.example/token",
         "jwks_uri": "https://as.example/jwks", "revocation_endpoint": "https://as.example/revoke",
         "code_challenge_methods_supported": ["S256"]}
        """#

    func configStore() -> ConfigStore {
        let json = #"""
            {"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://as.example",
             "metadataUrl": "https://as.example/.well-known/oauth-authorization-server"}}}
            """#
        return ConfigStore(storage: InMemoryConfigStorage(bytes: Data(json.utf8)))
    }

    func keystore() -> InMemoryKeystore {
        var user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now,
            lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: Self.resource, issuer: "https://as.example", providerID: "oidc.as", grantedAt: now,
                tokens: TokenSet(
                    accessToken: "at1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt1", idToken: nil, scopes: ["read"])))
        return InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
    }

    /// The server and the resource: `at1` has been revoked early, `at2` is what a refresh gives.
    func transport() -> StubTransport {
        StubTransport { request in
            let url = request.url.absoluteString
            let bearer = request.headers["Authorization"]
            switch url {
            case "https://as.example/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(Self.serverDocument.utf8))
            case "https://as.example/token":
                return HTTPResponse(
                    status: 200,
                    body: Data(
                        #"{"access_token": "at2", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt2", "scope": "read"}"#
                            .utf8))
            case "https://api.example.com/mcp/items":
                if bearer == "Bearer at2" { return HTTPResponse(status: 200, body: Data("data".utf8)) }
                return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            case "https://api.example.com/mcp/admin":
                return HTTPResponse(status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="read write""#])
            case "https://api.example.com/mcp/mfa":
                return HTTPResponse(
                    status: 401,
                    headers: ["WWW-Authenticate": #"Bearer error="insufficient_user_authentication", acr_values="urn:mfa", max_age=60"#])
            default:
                return HTTPResponse(status: 404)
            }
        }
    }

    func request(_ keystore: InMemoryKeystore, _ transport: StubTransport) -> ResourceRequest {
        let client = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(), metadataCache: NoMetadataCache(), secrets: StaticSecrets())
        return ResourceRequest(
            tokens: ResourceTokens(keystore: keystore, configStore: configStore(), tokens: client, clock: clock), transport: transport,
            random: SeededRandom(), clock: clock)
    }

    @Test("the egress rule holds request too: a grant whose recorded binding does not name the resource sends it nothing")
    func egressHoldsRequest() async throws {
        let keystore = keystore()
        try await keystore.update { state in
            state.users[0].resourceGrants[0].tokens?.egress = SecretBinding(
                issuer: "https://as.example", origins: [URL(string: "https://as.example/token")!].compactMap(Origin.init))
        }
        let transport = transport()
        await #expect {
            _ = try await request(keystore, transport).run(.init(url: URL(string: "https://api.example.com/mcp/items")!))
        } throws: { error in
            let error = error as? AuthError
            return error?.code == .providerNotConfigured && error?.details["egress"] == "refused"
                && error?.details["origin"] == "https://api.example.com:443"
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "a DPoP-bound grant: Authorization: DPoP and a proof of this request (ath, htm, htu); the resource's nonce asked once; refreshed with a proof"
    )
    func dpopBound() async throws {
        let key = DPoPKey.generate(using: SeededRandom(seed: 42))
        let state = try keystore().read()
        var user = try #require(state.currentUser)
        var grant = try #require(user.resourceGrants.first)
        grant.tokens?.tokenType = "DPoP"
        grant.tokens?.proofKey = key
        user.store(grant)
        let keystore = InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
        let transport = StubTransport { request in
            switch request.url.absoluteString {
            case "https://as.example/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(Self.serverDocument.utf8))
            case "https://as.example/token":
                guard request.headers["DPoP"] != nil else { return HTTPResponse(status: 400) }
                return HTTPResponse(
                    status: 200,
                    body: Data(#"{"access_token": "at2", "token_type": "DPoP", "expires_in": 3600, "refresh_token": "rt2"}"#.utf8))
            default:
                guard let proof = request.headers["DPoP"], let body = proof.split(separator: ".").dropFirst().first,
                    let bytes = Base64URL.decode(body), let claims = JSONValue.object(from: bytes)
                else { return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "DPoP"]) }
                guard claims["nonce"] == "rs-nonce" else {
                    return HTTPResponse(
                        status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce"])
                }
                let token = String(request.headers["Authorization"]?.dropFirst("DPoP ".count) ?? "")
                guard request.headers["Authorization"]?.hasPrefix("DPoP ") == true, claims["htm"] == "POST",
                    claims["htu"] == "https://api.example.com/mcp/items",
                    claims["ath"] == .string(Base64URL.encode(SHA256.hash(data: Data(token.utf8))))
                else { return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#]) }
                return HTTPResponse(status: 200, body: Data("data:\(token)".utf8))
            }
        }
        let outcome = try await request(keystore, transport).run(
            .init(method: "post", url: URL(string: "https://api.example.com/mcp/items?x=1")!))
        guard case .answered(let response) = outcome else {
            Issue.record("an answer, got \(outcome)")
            return
        }
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "data:at1")
        let resourceRequests = transport.requests.filter { $0.url.host == "api.example.com" }
        #expect(resourceRequests.count == 2, "once without the nonce, once with it")
        let refreshed = try await ResourceTokens(
            keystore: keystore, configStore: configStore(),
            tokens: TokenClient(
                transport: transport, clock: clock, random: SeededRandom(), metadataCache: NoMetadataCache(), secrets: StaticSecrets()),
            clock: clock
        ).token(for: URL(string: "https://api.example.com/mcp/items")!, forceRefresh: true)
        #expect(refreshed.accessToken == "at2" && refreshed.proofKey == key && refreshed.tokenType == "DPoP")
    }

    @Test("a 401 invalid_token refreshes once, with the resource, and the request is sent again")
    func refreshOnInvalidToken() async throws {
        let keystore = keystore(), transport = transport()
        let outcome = try await request(keystore, transport).run(.init(url: URL(string: "https://api.example.com/mcp/items")!))
        guard case .answered(let response) = outcome else {
            Issue.record("an answer, got \(outcome)")
            return
        }
        #expect(response.status == 200)
        let tokenRequests = transport.requests.filter { $0.url.path == "/token" }
        #expect(tokenRequests.count == 1)
        let body = String(decoding: tokenRequests.first?.body ?? Data(), as: UTF8.self)
        #expect(body.contains("grant_type=refresh_token") && body.contains("resource=https%3A%2F%2Fapi.example.com%2Fmcp"))
        #expect(keystore.state.users.first?.resourceGrants.first?.tokens?.accessToken == "at2")
        #expect(keystore.state.users.first?.resourceGrants.first?.tokens?.refreshToken == "rt2")
    }

    @Test("403 insufficient_scope asks for a step-up with the union of the scopes")
    func insufficientScope() async throws {
        let outcome = try await request(keystore(), transport()).run(.init(url: URL(string: "https://api.example.com/mcp/admin")!))
        var expected = ResourceRequest.StepUp(resource: Self.resource, scopes: ["read", "write"], error: "insufficient_scope")
        expected.issuer = "https://as.example"
        expected.providerID = "oidc.as"
        #expect(outcome == .stepUp(expected))
    }

    @Test("401 insufficient_user_authentication asks for a step-up with acr_values and max_age, without a refresh")
    func insufficientAuthentication() async throws {
        let transport = transport()
        let outcome = try await request(keystore(), transport).run(.init(url: URL(string: "https://api.example.com/mcp/mfa")!))
        var expected = ResourceRequest.StepUp(
            resource: Self.resource, scopes: ["read"], acrValues: "urn:mfa", maxAge: 60, error: "insufficient_user_authentication")
        expected.issuer = "https://as.example"
        expected.providerID = "oidc.as"
        #expect(outcome == .stepUp(expected))
        #expect(transport.requests.allSatisfy { $0.url.path != "/token" })
    }

    @Test("a URL no grant covers gets nothing sent: the token never goes to another resource")
    func noGrant() async {
        let transport = transport()
        await #expect(throws: AuthError.self) {
            _ = try await request(keystore(), transport).run(.init(url: URL(string: "https://api.example.com/mcpx")!))
        }
        await #expect(throws: AuthError.self) {
            _ = try await request(keystore(), transport).run(.init(url: URL(string: "https://evil.example/mcp")!))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("an Authorization header of the caller's is refused")
    func ownAuthorization() async {
        await #expect(throws: AuthError.self) {
            _ = try await request(keystore(), transport()).run(
                .init(url: URL(string: "https://api.example.com/mcp/items")!, headers: [("authorization", "Bearer x")]))
        }
    }

    @Test("a grant whose provider now names another issuer is not refreshed there")
    func otherIssuer() async throws {
        let json = #"{"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://other.example"}}}"#
        let transport = transport()
        let client = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(), metadataCache: NoMetadataCache(), secrets: StaticSecrets())
        let tokens = ResourceTokens(
            keystore: keystore(), configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(json.utf8))), tokens: client,
            clock: clock)
        await #expect(throws: AuthError.self) { _ = try await tokens.token(for: URL(string: Self.resource)!, forceRefresh: true) }
        #expect(transport.requests.isEmpty)
    }

    @Test("discovery: the 401's resource_metadata, then the server's RFC 8414 metadata")
    func discovery() async throws {
        let transport = StubTransport { request in
            switch request.url.absoluteString {
            case Self.resource:
                return HTTPResponse(
                    status: 401, headers: ["WWW-Authenticate": #"Bearer resource_metadata="https://api.example.com/meta/mcp""#])
            case "https://api.example.com/meta/mcp":
                return HTTPResponse(
                    status: 200,
                    body: Data(#"{"resource": "https://api.example.com/mcp", "authorization_servers": ["https://as.example"]}"#.utf8))
            case "https://as.example/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(Self.serverDocument.utf8))
            default:
                return HTTPResponse(status: 404)
            }
        }
        let found = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        #expect(found.server.document.issuer == "https://as.example")
        #expect(found.metadata.authorizationServers == ["https://as.example"])
        await #expect(throws: AuthError.self) {
            _ = try await ResourceDiscovery(transport: transport).discover(
                try ResourceIdentifier(parsing: Self.resource), issuer: "https://unlisted.example")
        }
    }

    @Test("discovery falls back to the well-known URL, and never follows a redirect to another origin")
    func discoveryRedirects() async throws {
        let transport = StubTransport { request in
            switch request.url.absoluteString {
            case "https://api.example.com/.well-known/oauth-protected-resource/mcp":
                return HTTPResponse(status: 302, headers: ["Location": "https://evil.example/meta"])
            default:
                return HTTPResponse(status: 404)
            }
        }
        await #expect(throws: AuthError.self) {
            _ = try await ResourceDiscovery(transport: transport).discover(try ResourceIdentifier(parsing: Self.resource), issuer: nil)
        }
        #expect(transport.requests.allSatisfy { $0.url.host != "evil.example" })
    }

    @Test(
        "a step-up that asks what the last one asked (scopes in any order, the same authentication) is the same ask; any change is a new one"
    )
    func sameAsk() {
        let first = ResourceRequest.StepUp(resource: "https://api.example/mcp", scopes: ["read", "write"], error: "insufficient_scope")
        var reordered = first
        reordered.scopes = ["write", "read"]
        #expect(first.asksTheSame(as: reordered))
        var wider = first
        wider.scopes.append("admin")
        #expect(!first.asksTheSame(as: wider))
        let mfa = ResourceRequest.StepUp(
            resource: "https://api.example/mcp", scopes: ["read", "write"], acrValues: "urn:example:mfa",
            error: "insufficient_user_authentication")
        #expect(!first.asksTheSame(as: mfa))
        var stronger = mfa
        stronger.acrValues = "urn:example:level-2"
        #expect(!mfa.asksTheSame(as: stronger) && mfa.asksTheSame(as: mfa))
    }
}
