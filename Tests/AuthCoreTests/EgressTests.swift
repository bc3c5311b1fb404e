import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

extension SecretBinding {
    /// The binding of secrets obtained from `discovery`'s endpoints (a sign-in's).
    static func of(_ discovery: DiscoveryDocument) -> SecretBinding { SecretBinding(issuer: discovery.issuer, discovery: discovery) }
}

private func answer(_ json: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
}

/// The egress rule (docs/security.md): every request that carries a secret goes only to an
/// origin its secrets were bound to, and the check is the transport's, so that every request
/// type the token client and `authctl request` make is held by it — shown here one by one.
@Suite("The egress rule: secrets go only where they were bound")
struct EgressTests {
    /// Where the secrets were obtained: idp.example.
    let bound = SecretBinding(issuer: "https://idp.example", origins: [Origin(URL(string: "https://idp.example/token")!)!])

    /// A provider whose metadata now names another server for every endpoint (config.json's
    /// `metadataUrl`, or a document that changed).
    let moved = {
        var document = DiscoveryDocument(
            issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://evil.example/authorize")!,
            tokenEndpoint: URL(string: "https://evil.example/token")!, jwksURI: URL(string: "https://evil.example/jwks")!,
            revocationEndpoint: URL(string: "https://evil.example/revoke")!,
            deviceAuthorizationEndpoint: URL(string: "https://evil.example/device")!)
        document.introspectionEndpoint = URL(string: "https://evil.example/introspect")!
        return document
    }()

    func provider() throws -> any IdentityProvider {
        var config = ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example")
        config.clientSecretEnv = "SECRET"
        return try ProviderRegistry.provider(for: config)
    }

    func client(_ transport: StubTransport) -> TokenClient {
        TokenClient(
            transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets(["SECRET": "s3cret"]))
    }

    /// True when `error` is the egress refusal toward evil.example.
    static func refused(_ error: any Error) -> Bool {
        guard let error = error as? AuthError else { return false }
        return error.code == .providerNotConfigured && error.details["egress"] == "refused"
            && error.details["origin"] == "https://evil.example:443" && !error.message.description.contains("s3cret")
    }

    @Test("every request type of the token client is refused toward an origin its secrets were not bound to, and nothing is sent")
    func everyTokenClientRequest() async throws {
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer"}"#) }
        let tokens = client(transport)
        let provider = try provider()
        let key = DPoPKey.generate(using: SeededRandom())
        let workload = WorkloadClient(clientID: "w", authentication: .secretEnvironment("SECRET"), scopes: [])
        let grants: [(String, TokenRequest.Grant, TokenClient.Client, TokenClient.Proof)] = [
            (
                "authorization code", .authorizationCode(code: "c", redirectURI: URL(string: "http://127.0.0.1:1/cb")!, codeVerifier: "v"),
                .configured, .none
            ),
            ("refresh token", .refreshToken("rt", scopes: nil), .configured, .none),
            ("refresh token with a DPoP proof", .refreshToken("rt", scopes: nil), .configured, .required(key)),
            ("refresh token for other scopes", .refreshToken("rt", scopes: ["other"]), .configured, .none),
            ("device code", .deviceCode("d"), .configured, .none),
            ("client credentials", .clientCredentials(scopes: ["s"]), .workload(workload), .none),
            ("token exchange", .tokenExchange(TokenExchangeRequest(subjectToken: "st", subjectTokenType: "urn:x")), .configured, .none),
        ]
        for (name, grant, who, proof) in grants {
            await #expect(Comment(rawValue: name)) {
                _ = try await tokens.requestTokens(grant, provider: provider, client: who, discovery: moved, proof: proof, binding: bound)
            } throws: { Self.refused($0) }
        }
        await #expect { _ = try await tokens.poll(deviceCode: "d", provider: provider, discovery: moved, binding: bound) } throws: {
            Self.refused($0)
        }
        await #expect {
            _ = try await tokens.pushAuthorization(
                [("response_type", "code")], at: URL(string: "https://evil.example/par")!, provider: provider, discovery: moved,
                binding: bound)
        } throws: { Self.refused($0) }
        await #expect {
            _ = try await tokens.deviceAuthorization(scopes: ["openid"], provider: provider, discovery: moved, binding: bound)
        } throws: { Self.refused($0) }
        for (endpoint, isRefresh) in [(moved.revocationEndpoint, true), (moved.introspectionEndpoint, false)] {
            await #expect {
                _ = try await tokens.tokenHint(
                    "rt", isRefreshToken: isRefresh, at: try #require(endpoint), provider: provider, discovery: moved, binding: bound)
            } throws: { Self.refused($0) }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("the same requests go through to an origin of the binding (the port made explicit, the host in any case)")
    func boundOriginPasses() async throws {
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer"}"#) }
        var here = moved
        here.tokenEndpoint = URL(string: "https://IDP.example:443/oauth/token")!
        _ = try await client(transport).requestTokens(
            .refreshToken("rt", scopes: nil), provider: try provider(), discovery: here, binding: bound)
        #expect(transport.requests.count == 1)
    }

    @Test("another port or scheme is another origin")
    func originParts() {
        #expect(!bound.permits(URL(string: "https://idp.example:8443/token")!))
        #expect(!bound.permits(URL(string: "http://idp.example/token")!))
        #expect(!bound.permits(URL(string: "https://idp.example.evil.example/token")!))
        #expect(bound.permits(URL(string: "https://idp.example/other/path?x=1")!))
        #expect(Origin(storedForm: "https://idp.example:443") == Origin(URL(string: "https://idp.example")!))
        #expect(Origin(storedForm: "https://idp.example") == nil)
        #expect(Origin(storedForm: "ftp://idp.example:21") == nil)
    }

    @Test("a request that carries a credential but names no binding is refused before it is sent: forgetting fails closed")
    func undeclaredCredential() async throws {
        let transport = StubTransport { _ in HTTPResponse(status: 200) }
        let url = URL(string: "https://idp.example/x")!
        var carrying: [HTTPRequest] = ["Authorization", "authorization", "DPoP", "Cookie", "Proxy-Authorization"].map {
            HTTPRequest(url: url, headers: [$0: "v"])
        }
        for name in HTTPRequest.credentialParameters {
            carrying.append(.form(url, [("grant_type", "x"), (name, "v")]))
        }
        for request in carrying {
            await #expect {
                _ = try await transport.send(request)
            } throws: { ($0 as? AuthError)?.code == .internalError }
        }
        // Nothing held: discovery, a key set, a registration without a token.
        _ = try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        _ = try await transport.send(.form(url, [("client_name", "authctl"), ("scope", "openid")]))
        #expect(transport.requests.count == 2)
    }

    @Test("a streamed request (authctl request) is held by the same check")
    func streamed() async throws {
        let transport = StubTransport { _ in HTTPResponse(status: 200, body: Data("x".utf8)) }
        var request = HTTPRequest(url: URL(string: "https://evil.example/mcp")!, headers: ["Authorization": "Bearer at"])
        request.egress = .bound(bound, provider: "oidc.example")
        await #expect {
            _ = try await transport.stream(request, decide: { _ in .stream }, sink: { _ in })
        } throws: { Self.refused($0) }
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "tokens stored before the binding existed may go to their issuer's origin only (and a grant's resource); a sign-in records the rest"
    )
    func legacyBinding() throws {
        var identity = LinkedIdentity(
            providerID: "oidc.example", issuer: "https://idp.example/realms/a", federatedID: "s", profile: Profile(), linkedAt: Date(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: []))
        #expect(identity.binding.permits(URL(string: "https://idp.example/realms/a/token")!))
        #expect(!identity.binding.permits(URL(string: "https://oauth2.idp-apis.example/token")!))
        identity.tokens?.egress = SecretBinding(
            issuer: "https://idp.example/realms/a", origins: [URL(string: "https://oauth2.idp-apis.example/token")!].compactMap(Origin.init)
        )
        #expect(identity.binding.permits(URL(string: "https://oauth2.idp-apis.example/token")!))
        let grant = ResourceGrant(
            resource: "https://api.example/mcp", issuer: "https://as.example", providerID: "oidc.as", grantedAt: Date(),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: nil, idToken: nil, scopes: []))
        #expect(grant.binding.permits(URL(string: "https://api.example/mcp/items")!))
        #expect(grant.binding.permits(URL(string: "https://as.example/token")!))
        #expect(!grant.binding.permits(URL(string: "https://evil.example/mcp")!))
    }

    @Test("the record round-trips through the keystore file, plaintext: issuer and origins as written")
    func storedForm() throws {
        var tokens = TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["openid"])
        tokens.egress = SecretBinding(issuer: "https://idp.example", discovery: moved, also: [URL(string: "https://[::1]:8443/x")])
        let record = KeystoreRecord.Tokens(tokens)
        #expect(record.egress?.origins == ["https://[::1]:8443", "https://evil.example:443"])
        let data = try KeystoreFile.encoder.encode(record)
        let read = try #require(KeystoreRecordReader.read(data) { KeystoreRecord.Tokens.read(&$0) })
        #expect(read == record && read.domain.egress == tokens.egress)
    }

    /// A person signed in by an earlier build (no binding recorded) at a provider whose token
    /// endpoint is on another origin than its issuer; config.json as `config`.
    func legacySession(config: String) -> (TokenRefresh, InMemoryKeystore, StubTransport) {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let identity = LinkedIdentity(
            providerID: "oidc.example", issuer: "https://idp.example", federatedID: "s", profile: Profile(), linkedAt: now,
            tokens: TokenSet(accessToken: "at", expiresAt: now, refreshToken: "rt", idToken: nil, scopes: ["openid"]))
        let user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: "oidc.example", providerData: [identity])
        let keystore = InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
        let document = #"""
            {"issuer": "https://idp.example", "authorization_endpoint": "https://idp.example/authorize",
             "token_endpoint": "https://oauth2.idp-apis.example/token", "jwks_uri": "https://idp.example/jwks"}
            """#
        let transport = StubTransport { request in
            switch request.url.absoluteString {
            case "https://idp.example/.well-known/openid-configuration", "https://metadata.example/openid-configuration":
                return HTTPResponse(status: 200, body: Data(document.utf8))
            case "https://oauth2.idp-apis.example/token":
                return answer(#"{"access_token":"at2","token_type":"Bearer","expires_in":3600}"#)
            default: return HTTPResponse(status: 404)
            }
        }
        let clock = FixedClock(now)
        let tokens = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(), metadataCache: NoMetadataCache(), secrets: StaticSecrets())
        let configStore = ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8)))
        return (
            TokenRefresh(keystore: keystore, configStore: configStore, tokens: tokens, transport: transport, clock: clock), keystore,
            transport
        )
    }

    @Test("a session of an earlier build is bound once, at its first refresh, to the endpoints of its issuer's own discovery document")
    func legacyMigratesOnce() async throws {
        let (refresh, keystore, _) = legacySession(
            config:
                #"{"version": 1, "providers": {"oidc.example": {"id": "oidc.example", "clientId": "c", "issuer": "https://idp.example"}}}"#)
        let output = try await refresh.run(.init(forceRefresh: true))
        #expect(output.token == "at2")
        let egress = try #require(keystore.state.users[0].providerData[0].tokens?.egress)
        #expect(egress.issuer == "https://idp.example" && egress.permits(URL(string: "https://oauth2.idp-apis.example/token")!))
    }

    @Test("…but not from a document config.json chose (metadataUrl): the refresh token stays at its issuer's origin")
    func legacyNotFromChosenDocument() async throws {
        let (refresh, keystore, transport) = legacySession(
            config:
                #"{"version": 1, "providers": {"oidc.example": {"id": "oidc.example", "clientId": "c", "issuer": "https://idp.example", "metadataUrl": "https://metadata.example/openid-configuration"}}}"#
        )
        await #expect { _ = try await refresh.run(.init(forceRefresh: true)) } throws: { error in
            (error as? AuthError)?.details["egress"] == "refused"
        }
        #expect(!transport.requests.contains { $0.url.host == "oauth2.idp-apis.example" })
        #expect(keystore.state.users[0].providerData[0].tokens?.egress == nil)
    }
}
