import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// RFC 8707 at the point a grant's token leaves authctl (docs/resources.md, docs/security.md):
/// a JWT access token is sent (or printed by `token --resource`) only when its `aud` names the
/// resource; a token for another audience is never sent. Opaque tokens go as they are.
@Suite("Resources: a JWT access token goes only to the audience it names")
struct ResourceAudienceTests {
    static let resource = "https://api.example.com/mcp"
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let clock = FixedClock(Date(timeIntervalSince1970: 1_790_000_000))

    /// An access token in the JWT shape (RFC 9068), signature not checked by a client.
    static func jwt(_ claims: String) -> String {
        Base64URL.encode(Data(#"{"alg": "RS256", "typ": "at+jwt"}"#.utf8)) + "." + Base64URL.encode(Data(claims.utf8)) + ".c2ln"
    }

    func keystore(accessToken: String) -> InMemoryKeystore {
        var user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: Self.resource, issuer: "https://as.example", providerID: "oidc.as", grantedAt: now,
                tokens: TokenSet(
                    accessToken: accessToken, expiresAt: now.addingTimeInterval(3600), refreshToken: "rt1", idToken: nil,
                    scopes: ["read"])))
        return InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
    }

    let transport = StubTransport { _ in HTTPResponse(status: 200, body: Data("data".utf8)) }

    func tokens(_ keystore: InMemoryKeystore) -> ResourceTokens {
        let config = #"{"version": 1, "providers": {"oidc.as": {"id": "oidc.as", "clientId": "c", "issuer": "https://as.example"}}}"#
        let client = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(), metadataCache: NoMetadataCache(), secrets: StaticSecrets())
        return ResourceTokens(
            keystore: keystore, configStore: ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8))), tokens: client,
            clock: clock)
    }

    func request(_ keystore: InMemoryKeystore) -> ResourceRequest {
        ResourceRequest(tokens: tokens(keystore), transport: transport, random: SeededRandom(), clock: clock)
    }

    let items = URL(string: "https://api.example.com/mcp/items")!

    @Test("a JWT for another audience (the company's API) is not sent: the error names its audience and what to do")
    func otherAudience() async throws {
        let token = Self.jwt(#"{"iss": "https://as.example", "aud": "https://graph.corp.example", "sub": "ada", "exp": 1790003600}"#)
        let error = await #expect(throws: AuthError.self) { try await request(keystore(accessToken: token)).run(.init(url: items)) }
        #expect(error?.code == .invalidCredential)
        #expect(error?.message.contains("https://graph.corp.example") == true, "\(String(describing: error))")
        #expect(error?.message.contains("not sent") == true, "\(String(describing: error))")
        #expect(error?.message.names(.login) == true)
        #expect(error?.message.contains(token) == false)
        #expect(transport.requests.allSatisfy { $0.url.host != "api.example.com" }, "nothing reached the resource")
    }

    @Test("a JWT without an audience, or whose audiences are none of the resource's, is not sent either")
    func missingAudience() async throws {
        for claims in [#"{"sub": "ada"}"#, #"{"aud": ["https://api.example.com/mcpx", "https://api.example.com:8443/mcp"]}"#] {
            await #expect(throws: AuthError.self) {
                try await request(keystore(accessToken: Self.jwt(claims))).run(.init(url: items))
            }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a JWT whose aud names the resource (or its origin, among others) is sent")
    func sameAudience() async throws {
        for claims in [
            #"{"aud": "https://api.example.com/mcp"}"#, #"{"aud": ["urn:other", "https://API.example.com/mcp"]}"#,
            #"{"aud": "https://api.example.com"}"#,
        ] {
            let outcome = try await request(keystore(accessToken: Self.jwt(claims))).run(.init(url: items))
            guard case .answered(let response) = outcome else {
                Issue.record("an answer, got \(outcome)")
                return
            }
            #expect(response.status == 200)
        }
        #expect(transport.requests.count == 3)
    }

    @Test("an opaque token (or a JWE) is sent as it is: its audience cannot be read")
    func opaque() async throws {
        for token in ["opaque-at", "a.b.c.d.e", "not.a.jwt"] {
            _ = try await request(keystore(accessToken: token)).run(.init(url: items))
        }
        #expect(transport.requests.count == 3)
    }

    @Test("token --resource refuses a JWT for another audience too")
    func printedToken() async throws {
        let token = Self.jwt(#"{"aud": "https://graph.corp.example"}"#)
        let error = await #expect(throws: AuthError.self) {
            try await tokens(keystore(accessToken: token)).token(for: URL(string: Self.resource)!)
        }
        #expect(error?.code == .invalidCredential)
    }
}
