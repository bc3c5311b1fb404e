import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// A resource grant that cannot be renewed (docs/resources.md, "When the authorization server
/// changes"): the error names the resource and the scopes the grant held (which `request`'s own
/// sign-in asks for again), and a client authctl registered that its server no longer knows
/// (`invalid_client`) is marked for a new registration, while a person's own is not.
@Suite("Resources: a grant that cannot be renewed")
struct ResourceRenewalTests {
    static let resource = "https://api.example.com/mcp"
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func keystore() -> InMemoryKeystore {
        var user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: Self.resource, issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: now,
                tokens: TokenSet(
                    accessToken: "at1", expiresAt: now.addingTimeInterval(-60), refreshToken: "rt1", idToken: nil,
                    scopes: ["read", "admin"])))
        return InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
    }

    /// The server's metadata, and a token endpoint that refuses every refresh with `error`.
    func transport(refusing error: String) -> StubTransport {
        StubTransport { request in
            switch request.url.absoluteString {
            case "https://as.example/.well-known/oauth-authorization-server":
                let document = #"""
                    {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize",
                     "token_endpoint": "https://as.example/token", "code_challenge_methods_supported": ["S256"]}
                    """#
                return HTTPResponse(status: 200, body: Data(document.utf8))
            case "https://as.example/token":
                return HTTPResponse(status: error == "invalid_client" ? 401 : 400, body: Data(#"{"error": "\#(error)"}"#.utf8))
            default:
                return HTTPResponse(status: 404)
            }
        }
    }

    func config(registered: Bool) -> ConfigStore {
        let registeredFor = registered ? #", "registeredFor": ["https://api.example.com/mcp"]"# : ""
        let json = #"""
            {"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "dyn-1", "issuer": "https://as.example",
             "metadataUrl": "https://as.example/.well-known/oauth-authorization-server"\#(registeredFor)}}}
            """#
        return ConfigStore(storage: InMemoryConfigStorage(bytes: Data(json.utf8)))
    }

    func renew(_ configStore: ConfigStore, refusing error: String) async -> AuthError? {
        let transport = transport(refusing: error)
        let client = TokenClient(
            transport: transport, clock: FixedClock(now), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets())
        let tokens = ResourceTokens(keystore: keystore(), configStore: configStore, tokens: client, clock: FixedClock(now))
        do {
            _ = try await tokens.token(for: URL(string: Self.resource)!)
            return nil
        } catch {
            return error as? AuthError
        }
    }

    @Test("invalid_grant: the resource and the grant's scopes in the error; nothing marked", arguments: [true, false])
    func invalidGrant(registered: Bool) async throws {
        let store = config(registered: registered)
        let error = try #require(await renew(store, refusing: "invalid_grant"))
        #expect(error.code == .invalidCredential && error.oauthError == .invalidGrant)
        #expect(error.details["resource"] == .string(Self.resource))
        #expect(error.details["scopes"] == .array([.string("read"), .string("admin")]))
        #expect(try store.load().providers["oidc.as-example"]?.clientRefusedAt == nil)
    }

    @Test("invalid_client: a client authctl registered is marked for a new registration; a person's own is not")
    func invalidClient() async throws {
        let registered = config(registered: true)
        let error = try #require(await renew(registered, refusing: "invalid_client"))
        #expect(error.oauthError == .invalidClient && error.details["scopes"] == .array([.string("read"), .string("admin")]))
        #expect(try registered.load().providers["oidc.as-example"]?.clientRefusedAt == 1_790_000_000)
        let configured = config(registered: false)
        _ = await renew(configured, refusing: "invalid_client")
        #expect(try configured.load().providers["oidc.as-example"]?.clientRefusedAt == nil)
    }
}
