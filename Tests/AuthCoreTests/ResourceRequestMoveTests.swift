import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl request` and a resource whose metadata (RFC 9728) names another authorization server
/// than the one that issued the grant (MCP SEP-2352; docs/resources.md, "When the authorization
/// server changes"): its 401 is answered with the move for the caller to ask about — no refresh at
/// the old server, and no token to anything the new server names.
@Suite("Resources: a 401 from a resource that names another authorization server")
struct ResourceRequestMoveTests {
    static let resource = "https://api.example.com/mcp"
    static let oldServer = "https://as.example"
    static let newServer = "https://new.example"
    static let metadataURL = "https://api.example.com/.well-known/oauth-protected-resource/mcp"
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let clock = FixedClock(Date(timeIntervalSince1970: 1_790_000_000))

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
            lastAuthAt: now, lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: Self.resource, issuer: Self.oldServer, providerID: "oidc.as", grantedAt: now,
                tokens: TokenSet(
                    accessToken: "at1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt1", idToken: nil,
                    scopes: ["read", "write"])))
        return InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
    }

    /// The resource refuses `at1` (401 `invalid_token`, naming its metadata when `named`) and takes
    /// `at2`; its metadata lists `servers` (`metadataStatus` other than 200: it cannot be read);
    /// the old server refreshes to `at2`.
    func transport(servers: [String], named: Bool = true, metadataStatus: Int = 200) -> StubTransport {
        StubTransport { request in
            switch request.url.absoluteString {
            case Self.metadataURL:
                guard metadataStatus == 200 else { return HTTPResponse(status: metadataStatus) }
                let list = servers.map { "\"\($0)\"" }.joined(separator: ", ")
                return HTTPResponse(
                    status: 200, body: Data(#"{"resource": "\#(Self.resource)", "authorization_servers": [\#(list)]}"#.utf8))
            case "https://as.example/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(ResourceRequestTests.serverDocument.utf8))
            case "https://as.example/token":
                return HTTPResponse(
                    status: 200,
                    body: Data(#"{"access_token": "at2", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt2"}"#.utf8))
            case "https://api.example.com/mcp/items":
                if request.headers["Authorization"] == "Bearer at2" { return HTTPResponse(status: 200, body: Data("data".utf8)) }
                let challenge = #"Bearer error="invalid_token""# + (named ? #", resource_metadata="\#(Self.metadataURL)""# : "")
                return HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge])
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

    static let items = URL(string: "https://api.example.com/mcp/items")!

    @Test(
        "V1: a 401 whose metadata names another server: the move (resource, old, new) and the grant's scopes; nothing refreshed, keystore unchanged"
    )
    func movedOn401() async throws {
        for named in [true, false] {
            let keystore = keystore()
            let before = try keystore.read()
            let transport = transport(servers: [Self.newServer], named: named)
            let outcome = try await request(keystore, transport).run(.init(url: Self.items))
            #expect(
                outcome
                    == .serverMoved(
                        ServerMove(resource: Self.resource, from: Self.oldServer, to: Self.newServer), scopes: ["read", "write"]),
                "named: \(named)")
            let urls = transport.requests.map(\.url.absoluteString)
            #expect(!urls.contains("https://as.example/token"), "no refresh at the old server: \(urls)")
            #expect(!urls.contains { $0.hasPrefix(Self.newServer) }, "the move is the caller's to agree to: \(urls)")
            #expect(try keystore.read() == before)
        }
    }

    @Test("V1: the token went to the resource only, once; the metadata and everything else got no Authorization")
    func tokenOnlyToTheResource() async throws {
        let transport = transport(servers: [Self.newServer])
        _ = try await request(keystore(), transport).run(.init(url: Self.items))
        let carrying = transport.requests.filter { $0.headers["Authorization"] != nil || $0.headers["DPoP"] != nil }
        #expect(carrying.map(\.url) == [Self.items])
    }

    @Test("V1: streamed, the same: the 401's body reaches no sink, and the move is the outcome")
    func movedWhenStreaming() async throws {
        let transport = transport(servers: [Self.newServer])
        let sink = CollectingSink()
        let outcome = try await request(keystore(), transport).run(.init(url: Self.items), streamingTo: sink)
        #expect(
            outcome
                == .serverMoved(ServerMove(resource: Self.resource, from: Self.oldServer, to: Self.newServer), scopes: ["read", "write"]))
        #expect(sink.bytes.isEmpty)
    }

    @Test("V2: metadata that still lists the grant's server (among others), or cannot be read: one refresh, one retry, as before")
    func notMoved() async throws {
        for transport in [
            transport(servers: [Self.newServer, Self.oldServer]), transport(servers: [Self.newServer], metadataStatus: 500),
            transport(servers: [Self.newServer], named: false, metadataStatus: 404),
        ] {
            let outcome = try await request(keystore(), transport).run(.init(url: Self.items))
            guard case .answered(let response) = outcome else {
                Issue.record("an answer, got \(outcome)")
                continue
            }
            #expect(response.status == 200)
            #expect(transport.requests.contains { $0.url.absoluteString == "https://as.example/token" })
        }
    }
}

/// A response sink that keeps the body's bytes.
final class CollectingSink: ResponseSink, @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [UInt8] = []
    var bytes: [UInt8] { lock.withLock { collected } }
    func head(_ head: HTTPResponseHead) throws {}
    func body(_ chunk: Data) throws { lock.withLock { collected += Array(chunk) } }
}
