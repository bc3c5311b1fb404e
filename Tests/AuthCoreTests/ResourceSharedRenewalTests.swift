import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// The renewal of the grants of one sign-in for several resources (docs/resources.md, "Several
/// resources, one sign-in"): one refresh token, held by the first grant, renews every grant of
/// the sign-in at once, with every resource named (RFC 8707 §2.2), so that a server that rotates
/// refresh tokens (and revokes the access token issued with the old one) strands none of them.
@Suite("Resources: renewing the grants of one sign-in")
struct ResourceSharedRenewalTests {
    static let mcp = "https://api.example.com/mcp"
    static let docs = "https://files.example.com/docs"
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func grant(_ resource: String, refreshToken: String?, of holder: String? = nil, expired: Bool = true) -> ResourceGrant {
        var grant = ResourceGrant(
            resource: resource, issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: now,
            tokens: TokenSet(
                accessToken: "at0", expiresAt: now.addingTimeInterval(expired ? -60 : 3600), refreshToken: refreshToken, idToken: nil,
                scopes: ["read"]))
        grant.refreshTokenOf = holder
        return grant
    }

    func user(_ grants: [ResourceGrant]) -> User {
        var user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: nil, providerData: [])
        for grant in grants { user.store(grant) }
        return user
    }

    /// The server's metadata, and a token endpoint that rotates: each refresh answers `atN`/`rtN`
    /// (`refusing`: `invalid_grant` to each).
    func transport(refusing: Bool = false) -> StubTransport {
        let counter = AnswerCounter()
        return StubTransport { request in
            switch request.url.absoluteString {
            case "https://as.example/.well-known/oauth-authorization-server":
                let document = #"""
                    {"issuer": "https://as.example", "authorization_endpoint": "https://as.example/authorize",
                     "token_endpoint": "https://as.example/token", "code_challenge_methods_supported": ["S256"]}
                    """#
                return HTTPResponse(status: 200, body: Data(document.utf8))
            case "https://as.example/token" where refusing:
                return HTTPResponse(status: 400, body: Data(#"{"error": "invalid_grant"}"#.utf8))
            case "https://as.example/token":
                let n = counter.next()
                let body = #"{"access_token": "at\#(n)", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt\#(n)"}"#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            default:
                return HTTPResponse(status: 404)
            }
        }
    }

    var configStore: ConfigStore {
        let json = #"""
            {"version": 1, "providers": {"oidc.as-example": {"id": "oidc.as-example", "clientId": "dyn-1", "issuer": "https://as.example",
             "metadataUrl": "https://as.example/.well-known/oauth-authorization-server"}}}
            """#
        return ConfigStore(storage: InMemoryConfigStorage(bytes: Data(json.utf8)))
    }

    func tokens(_ keystore: InMemoryKeystore, _ transport: StubTransport) -> ResourceTokens {
        let client = TokenClient(
            transport: transport, clock: FixedClock(now), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets())
        return ResourceTokens(keystore: keystore, configStore: configStore, tokens: client, clock: FixedClock(now))
    }

    /// The form of the token requests sent, as (name, value) pairs.
    func forms(_ transport: StubTransport) -> [[(String, String)]] {
        transport.requests.filter { $0.url.absoluteString == "https://as.example/token" }.map { request in
            (URLComponents(string: "?" + String(decoding: request.body ?? Data(), as: UTF8.self))?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            }
        }
    }

    @Test("a grant that names another's refresh token renews with it, for every resource; all the sign-in's grants take the answer")
    func followerRenews() async throws {
        let keystore = InMemoryKeystore(
            AccountState(
                currentUID: "u1", users: [user([grant(Self.mcp, refreshToken: "rt0"), grant(Self.docs, refreshToken: nil, of: Self.mcp)])]))
        let transport = transport()
        let output = try await tokens(keystore, transport).token(for: URL(string: Self.docs + "/a")!)
        #expect(output.accessToken == "at1" && output.grant.resource == Self.docs)
        let form = try #require(forms(transport).first)
        #expect(form.first { $0.0 == "refresh_token" }?.1 == "rt0")
        #expect(form.filter { $0.0 == "resource" }.map(\.1) == [Self.mcp, Self.docs])
        let grants = try #require(keystore.state.currentUser?.resourceGrants)
        #expect(grants[0].tokens?.refreshToken == "rt1", "the rotated refresh token replaces the old one where it lives")
        #expect(grants[1].tokens?.refreshToken == nil && grants[1].refreshTokenOf == Self.mcp)
        #expect(grants.map { $0.tokens?.accessToken } == ["at1", "at1"], "the old access token may be revoked with the old refresh token")
    }

    /// The attacker review: a grant without tokens has nothing sealed, so in a sealed keystore its
    /// `resource` and `refreshTokenOf` can be written without the key. Named as a member, it
    /// added its resource to every renewal of the sign-in (the new token's `aud` widened to it).
    @Test("a grant without tokens is no member of a sign-in: its resource is never named in a renewal")
    func signedOutGrantIsNoMember() async throws {
        var injected = grant("https://other.example.com/c", refreshToken: nil, of: Self.mcp)
        injected.tokens = nil
        var user = user([grant(Self.mcp, refreshToken: "rt0"), grant(Self.docs, refreshToken: nil, of: Self.mcp)])
        user.resourceGrants.append(injected)
        let keystore = InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
        let transport = transport()
        _ = try await tokens(keystore, transport).token(for: URL(string: Self.docs + "/a")!)
        let form = try #require(forms(transport).first)
        #expect(form.filter { $0.0 == "resource" }.map(\.1) == [Self.mcp, Self.docs])
        let grants = try #require(keystore.state.currentUser?.resourceGrants)
        #expect(grants[2].tokens == nil, "the grant without tokens is left as it was")
    }

    @Test("after one grant's renewal the other renews with the rotated refresh token")
    func otherStillRenews() async throws {
        let keystore = InMemoryKeystore(
            AccountState(
                currentUID: "u1", users: [user([grant(Self.mcp, refreshToken: "rt0"), grant(Self.docs, refreshToken: nil, of: Self.mcp)])]))
        let transport = transport()
        let tokens = tokens(keystore, transport)
        _ = try await tokens.token(for: URL(string: Self.docs)!)
        let output = try await tokens.token(for: URL(string: Self.mcp)!, forceRefresh: true)
        #expect(output.accessToken == "at2")
        #expect(forms(transport).map { form in form.first { $0.0 == "refresh_token" }?.1 } == ["rt0", "rt1"])
        let again = try await tokens.token(for: URL(string: Self.docs)!, forceRefresh: true)
        #expect(again.accessToken == "at3" && keystore.state.currentUser?.resourceGrants[0].tokens?.refreshToken == "rt3")
    }

    @Test("a grant whose refresh token's holder is gone is not refreshed and names the sign-in")
    func holderGone() async throws {
        let keystore = InMemoryKeystore(
            AccountState(currentUID: "u1", users: [user([grant(Self.docs, refreshToken: nil, of: Self.mcp)])]))
        let transport = transport()
        let error = await #expect(throws: AuthError.self) { try await tokens(keystore, transport).token(for: URL(string: Self.docs)!) }
        #expect(error?.code == .invalidCredential && error?.message.description.contains("login \(Self.docs)") == true)
        #expect(forms(transport).isEmpty)
    }

    @Test("a refusal of the shared refresh token names the resource asked for, which `request` signs in to again")
    func refusalNamesAsked() async throws {
        let keystore = InMemoryKeystore(
            AccountState(
                currentUID: "u1", users: [user([grant(Self.mcp, refreshToken: "rt0"), grant(Self.docs, refreshToken: nil, of: Self.mcp)])]))
        let refusing = transport(refusing: true)
        let error = await #expect(throws: AuthError.self) { try await tokens(keystore, refusing).token(for: URL(string: Self.docs)!) }
        #expect(error?.oauthError == .invalidGrant && error?.details["resource"] == .string(Self.docs))
        #expect(error?.message.description.contains("login \(Self.docs)") == true, "\(error?.message.description ?? "")")
    }

    @Test("a new sign-in for the holder's resource alone hands the old refresh token to the grants that named it")
    func holderReplaced() {
        var user = user([
            grant(Self.mcp, refreshToken: "rt0"), grant(Self.docs, refreshToken: nil, of: Self.mcp),
            grant("https://files.example.com/more", refreshToken: nil, of: Self.mcp),
        ])
        user.store(grant(Self.mcp, refreshToken: "rt-new", expired: false))
        #expect(user.resourceGrants[0].tokens?.refreshToken == "rt-new")
        #expect(user.resourceGrants[1].tokens?.refreshToken == "rt0" && user.resourceGrants[1].refreshTokenOf == nil)
        #expect(user.resourceGrants[2].refreshTokenOf == Self.docs)
    }
}

/// A counter shared by a stub's answers.
final class AnswerCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
