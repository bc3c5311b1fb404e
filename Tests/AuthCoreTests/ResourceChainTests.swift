import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// `login URL --via PROVIDER` (docs/resources.md, "Enterprise-managed authorization"): the
/// identity's token exchanged at its provider (AS-A) for a grant to the resource's
/// authorization server (AS-B), presented there with the JWT-bearer grant; the two requests'
/// parameters, the checks of the exchange's answer, renewal by repeating the chain.
@Suite("Resources: identity chaining (login URL --via)")
struct ResourceChainTests {
    static let resource = "https://api.example/mcp"
    static let issuerA = "https://idp.example"
    static let issuerB = "https://as-b.example"
    static let config = #"""
        {"version": 1, "providers": {
          "oidc.corp": {"id": "oidc.corp", "clientId": "corp-client", "issuer": "https://idp.example"},
          "oidc.as-b": {"id": "oidc.as-b", "clientId": "b-client", "issuer": "https://as-b.example",
                        "metadataUrl": "https://as-b.example/.well-known/oauth-authorization-server",
                        "registeredFor": ["https://api.example/mcp"]}}}
        """#

    /// What the servers saw and how AS-A answers the exchange.
    final class Servers: @unchecked Sendable {
        let lock = NSLock()
        var exchanges: [[String: String]] = []
        var presentations: [[String: String]] = []
        var issuedTokenType = TokenExchangeRequest.TokenType.jwt
        var audience = ResourceChainTests.issuerB
        /// The grant's `aud` as JSON, when not the one string `audience` (a list).
        var audienceJSON: String?
        /// AS-B's metadata lists `dpop_signing_alg_values_supported`; it binds a token to a proof.
        var bOffersDPoP = false
        /// The DPoP header of each request to AS-A's and AS-B's token endpoints (nil: none).
        var proofsA: [String?] = []
        var proofsB: [String?] = []

        /// The grant's `typ`; nil: `oauth-id-jag+jwt` for an ID-JAG, `JWT` for another type.
        var grantTyp: String?

        func grant(_ count: Int) -> String {
            let typ = grantTyp ?? (issuedTokenType == TokenExchangeRequest.TokenType.idJAG ? "oauth-id-jag+jwt" : "JWT")
            let header = Base64URL.encode(Data(#"{"alg":"ES256","typ":"\#(typ)"}"#.utf8))
            let payload = Base64URL.encode(
                Data(
                    #"{"iss":"https://idp.example","sub":"ada","aud":\#(audienceJSON ?? "\"\(audience)\""),"jti":"g\#(count)","exp":1790000060}"#
                        .utf8))
            return "\(header).\(payload).c2ln"
        }
    }

    static func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(
            FormURLEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)) ?? [], uniquingKeysWith: { first, _ in first })
    }

    static func transport(_ servers: Servers) -> StubTransport {
        StubTransport { request in
            switch request.url.absoluteString {
            case resource: return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
            case "https://api.example/.well-known/oauth-protected-resource/mcp":
                let body = #"{"resource": "\#(resource)", "authorization_servers": ["\#(issuerB)"], "scopes_supported": ["read"]}"#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            case "\(issuerB)/.well-known/oauth-authorization-server":
                let dpop = servers.lock.withLock { servers.bOffersDPoP } ? #", "dpop_signing_alg_values_supported": ["ES256"]"# : ""
                let body = #"""
                    {"issuer": "https://as-b.example", "authorization_endpoint": "https://as-b.example/authorize",
                     "token_endpoint": "https://as-b.example/token", "code_challenge_methods_supported": ["S256"]\#(dpop)}
                    """#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            case "\(issuerA)/.well-known/openid-configuration":
                let body = #"""
                    {"issuer": "https://idp.example", "authorization_endpoint": "https://idp.example/authorize",
                     "token_endpoint": "https://idp.example/token", "jwks_uri": "https://idp.example/jwks"}
                    """#
                return HTTPResponse(status: 200, body: Data(body.utf8))
            case "\(issuerA)/token":
                let count = servers.lock.withLock {
                    servers.exchanges.append(form(request))
                    servers.proofsA.append(request.headers["DPoP"])
                    return servers.exchanges.count
                }
                let (grant, type) = servers.lock.withLock { (servers.grant(count), servers.issuedTokenType) }
                return FakeHTTP.json(
                    .object([
                        "access_token": .string(grant), "token_type": "N_A", "issued_token_type": .string(type), "expires_in": .number(60),
                    ]))
            case "\(issuerB)/token":
                let count = servers.lock.withLock {
                    servers.presentations.append(form(request))
                    servers.proofsB.append(request.headers["DPoP"])
                    return servers.presentations.count
                }
                let type: JSONValue = request.headers["DPoP"] == nil ? "Bearer" : "DPoP"
                return FakeHTTP.json(
                    .object(["access_token": .string("b-at-\(count)"), "token_type": type, "expires_in": .number(300), "scope": "read"]))
            default: return HTTPResponse(status: 404)
            }
        }
    }

    struct Parts {
        let servers: Servers
        let transport: StubTransport
        let keystore: InMemoryKeystore
        let clock: ManualClock
        let chain: ResourceChain
        let resourceTokens: ResourceTokens
    }

    /// Ada holds an identity at oidc.corp (AS-A) with a valid access token (and `idToken`).
    /// With `identityKey`, the identity's access token is bound to that DPoP key (RFC 9449).
    static func parts(
        idToken: String? = nil, config: String = config, prompt: RecordingTerminal = RecordingTerminal(), identityKey: DPoPKey? = nil
    ) -> Parts {
        let clock = ManualClock()
        let now = clock.now()
        var subjectTokens = TokenSet(
            accessToken: "subject-at", tokenType: identityKey == nil ? "Bearer" : "DPoP", expiresAt: now.addingTimeInterval(36_000),
            refreshToken: nil, idToken: idToken, scopes: ["openid"])
        subjectTokens.proofKey = identityKey
        let identity = LinkedIdentity(
            providerID: "oidc.corp", issuer: issuerA, federatedID: "ada", profile: Profile(), linkedAt: now, tokens: subjectTokens)
        let user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: "oidc.corp", providerData: [identity])
        let keystore = InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
        let servers = Servers()
        let transport = transport(servers)
        let configStore = ConfigStore(storage: InMemoryConfigStorage(bytes: Data(config.utf8)))
        let tokens = TokenClient(
            transport: transport, clock: clock, random: SeededRandom(seed: 4), metadataCache: NoMetadataCache(), secrets: StaticSecrets())
        let refresh = TokenRefresh(keystore: keystore, configStore: configStore, tokens: tokens, transport: transport, clock: clock)
        let exchange = TokenExchange(
            keystore: keystore, configStore: configStore, tokens: tokens, refresh: refresh, secrets: StaticSecrets(), clock: clock)
        let chain = ResourceChain(
            transport: transport, configStore: configStore, tokens: tokens, exchange: exchange, keystore: keystore, clock: clock,
            random: SeededRandom(seed: 5), secrets: MemoryRegistrationSecrets(), prompt: prompt)
        let resourceTokens = ResourceTokens(keystore: keystore, configStore: configStore, tokens: tokens, clock: clock, chain: chain)
        return Parts(servers: servers, transport: transport, keystore: keystore, clock: clock, chain: chain, resourceTokens: resourceTokens)
    }

    static func input(_ type: ResourceChain.GrantType = .jwt) throws -> ResourceChain.Input {
        ResourceChain.Input(resource: resource, via: try ProviderID(parsing: "oidc.corp"), grantType: type)
    }

    @Test("the exchange at AS-A and the JWT-bearer grant at AS-B carry exactly the chain's parameters; the grant is kept with its source")
    func twoRequests() async throws {
        let parts = Self.parts()
        let output = try await parts.chain.run(try Self.input())
        let exchange = try #require(parts.servers.exchanges.first)
        #expect(exchange["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(exchange["subject_token"] == "subject-at")
        #expect(exchange["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(exchange["requested_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(exchange["audience"] == Self.issuerB)
        #expect(exchange["resource"] == Self.resource)
        #expect(exchange["client_id"] == "corp-client")
        #expect(exchange["scope"] == nil && exchange["assertion"] == nil)
        let presented = try #require(parts.servers.presentations.first)
        #expect(presented["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        #expect(presented["assertion"] == parts.servers.grant(1))
        #expect(presented["resource"] == Self.resource)
        #expect(presented["scope"] == "read")
        #expect(presented["client_id"] == "b-client")
        #expect(presented["subject_token"] == nil)
        // AS-A's token went to AS-A alone; the grant to AS-B's token endpoint alone.
        for request in parts.transport.requests {
            let text = String(decoding: request.body ?? Data(), as: UTF8.self) + "\(request.headers)"
            if text.contains("subject-at") { #expect(request.url.absoluteString == "\(Self.issuerA)/token") }
            if text.contains(parts.servers.grant(1)) { #expect(request.url.absoluteString == "\(Self.issuerB)/token") }
        }
        #expect(output.grant.viaProviderID == "oidc.corp" && output.grant.issuer == Self.issuerB && output.providerID == "oidc.as-b")
        let kept = try #require(parts.keystore.state.users.first?.resourceGrants.first)
        #expect(kept.viaProviderID == "oidc.corp" && kept.viaTokenType == "urn:ietf:params:oauth:token-type:jwt")
        #expect(kept.tokens?.accessToken == "b-at-1" && kept.tokens?.refreshToken == nil)
        // Never cached with the identity: AS-B takes each grant once.
        #expect(parts.keystore.state.users.first?.providerData.first?.tokens?.derivedCredentials == nil)
    }

    @Test("by default the grant asked for is an ID-JAG")
    func idJAGByDefault() async throws {
        let parts = Self.parts()
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.idJAG
        _ = try await parts.chain.run(ResourceChain.Input(resource: Self.resource, via: try ProviderID(parsing: "oidc.corp")))
        #expect(parts.servers.exchanges.first?["requested_token_type"] == "urn:ietf:params:oauth:token-type:id-jag")
        #expect(parts.keystore.state.users.first?.resourceGrants.first?.viaTokenType == "urn:ietf:params:oauth:token-type:id-jag")
    }

    @Test(
        "an answer of another issued_token_type (a server's fallback to an access token) is refused; AS-B gets nothing; the keystore is unchanged"
    )
    func wrongIssuedType() async throws {
        let parts = Self.parts()
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.accessToken
        let before = parts.keystore.state
        let error = await #expect(throws: AuthError.self) { _ = try await parts.chain.run(try Self.input(.idJAG)) }
        #expect(error?.code == .invalidCredential)
        #expect(error?.message.contains("urn:ietf:params:oauth:token-type:access_token") == true)
        #expect(error?.message.contains("‹requestedTokenType›") == true, "names the option to change")
        #expect(parts.servers.presentations.isEmpty)
        #expect(parts.keystore.state == before)
    }

    @Test(
        "an ID-JAG whose typ is not oauth-id-jag+jwt (draft-ietf-oauth-identity-assertion-authz-grant) is refused; AS-B gets nothing; the keystore is unchanged",
        arguments: ["JWT", "at+jwt", "", "oauth-id-jag+jwt+x"])
    func idJAGType(typ: String) async throws {
        let parts = Self.parts()
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.idJAG
        parts.servers.grantTyp = typ
        let before = parts.keystore.state
        let error = await #expect(throws: AuthError.self) { _ = try await parts.chain.run(try Self.input(.idJAG)) }
        #expect(error?.code == .invalidCredential)
        #expect(error?.message.contains("oauth-id-jag+jwt") == true && error?.message.contains("not presented") == true)
        #expect(parts.servers.presentations.isEmpty)
        #expect(parts.keystore.state == before)
    }

    @Test(
        "an ID-JAG typed with the full media type, in any case, is taken (RFC 7515 §4.1.9)",
        arguments: ["application/oauth-id-jag+jwt", "OAuth-ID-JAG+JWT"])
    func idJAGMediaType(typ: String) async throws {
        let parts = Self.parts()
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.idJAG
        parts.servers.grantTyp = typ
        _ = try await parts.chain.run(try Self.input(.idJAG))
        #expect(parts.servers.presentations.count == 1)
    }

    @Test("a grant whose aud is not AS-B's issuer is refused; AS-B gets nothing; the keystore is unchanged")
    func audienceMismatch() async throws {
        let parts = Self.parts()
        parts.servers.audience = Self.resource
        let before = parts.keystore.state
        let error = await #expect(throws: AuthError.self) { _ = try await parts.chain.run(try Self.input()) }
        #expect(error?.code == .invalidCredential)
        #expect(error?.message.contains(Self.issuerB) == true && error?.message.contains("not presented") == true)
        #expect(parts.servers.presentations.isEmpty)
        #expect(parts.keystore.state == before)
    }

    @Test("an ID-JAG's aud is AS-B's issuer alone (the draft's one audience); an identity-chaining JWT may name others too")
    func idJAGSingleAudience() async throws {
        let both = #"["\#(Self.issuerB)", "https://as-c.example"]"#
        let parts = Self.parts()
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.idJAG
        parts.servers.audienceJSON = both
        let before = parts.keystore.state
        let error = await #expect(throws: AuthError.self) { _ = try await parts.chain.run(try Self.input(.idJAG)) }
        #expect(error?.code == .invalidCredential && error?.message.contains("https://as-c.example") == true, "\(error?.message ?? "")")
        #expect(parts.servers.presentations.isEmpty)
        #expect(parts.keystore.state == before)
        let jwt = Self.parts()
        jwt.servers.audienceJSON = both
        _ = try await jwt.chain.run(try Self.input(.jwt))
        #expect(jwt.servers.presentations.count == 1)
    }

    @Test("a stored chain of a grant type authctl does not know is not renewed as another: a new sign-in is asked, nothing sent")
    func unknownStoredGrantType() async throws {
        let parts = Self.parts()
        _ = try await parts.chain.run(try Self.input())
        try await parts.keystore.update { $0.users[0].resourceGrants[0].viaTokenType = "urn:example:future-grant" }
        parts.clock.advance(by: 301)
        let before = parts.keystore.state
        let error = await #expect(throws: AuthError.self) {
            _ = try await parts.resourceTokens.token(for: try #require(URL(string: Self.resource)))
        }
        #expect(error?.code == .invalidCredential && error?.message.contains("via oidc.corp") == true, "\(error?.message ?? "")")
        #expect(parts.servers.exchanges.count == 1 && parts.servers.presentations.count == 1)
        #expect(parts.keystore.state == before)
    }

    @Test("an identity that is not the user's is named before anything is sent")
    func noIdentity() async throws {
        let parts = Self.parts()
        let error = await #expect(throws: AuthError.self) {
            _ = try await parts.chain.run(ResourceChain.Input(resource: Self.resource, via: try ProviderID(parsing: "oidc.other")))
        }
        #expect(error?.code == .noSuchProvider)
        #expect(parts.transport.requests.isEmpty)
    }

    @Test("with an ID token, the ID token is the subject token")
    func idTokenSubject() async throws {
        let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"iss":"https://idp.example","sub":"ada","aud":"corp-client","exp":1790036000}"#.utf8))
        let idToken = "\(header).\(payload).c2ln"
        let parts = Self.parts(idToken: idToken)
        _ = try await parts.chain.run(try Self.input())
        #expect(parts.servers.exchanges.first?["subject_token"] == idToken)
        #expect(parts.servers.exchanges.first?["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
    }

    @Test("expired without a refresh token, the grant is renewed by repeating the chain (no person), then served from the keystore")
    func renewal() async throws {
        let parts = Self.parts()
        _ = try await parts.chain.run(try Self.input())
        let url = try #require(URL(string: Self.resource))
        let fresh = try await parts.resourceTokens.token(for: url)
        #expect(fresh.accessToken == "b-at-1" && !fresh.refreshed)
        parts.clock.advance(by: 301)
        let renewed = try await parts.resourceTokens.token(for: url)
        #expect(renewed.accessToken == "b-at-2" && renewed.refreshed)
        #expect(parts.servers.exchanges.count == 2 && parts.servers.presentations.count == 2)
        #expect(parts.servers.exchanges[1]["requested_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(parts.servers.presentations[1]["assertion"] == parts.servers.grant(2))
        #expect(parts.servers.presentations[1]["scope"] == "read" && parts.servers.presentations[1]["resource"] == Self.resource)
        let kept = try #require(parts.keystore.state.users.first?.resourceGrants.first)
        #expect(kept.tokens?.accessToken == "b-at-2" && kept.viaProviderID == "oidc.corp")
    }

    @Test("a renewal the provider refuses leaves the grant as it was")
    func renewalRefused() async throws {
        let parts = Self.parts()
        _ = try await parts.chain.run(try Self.input())
        parts.clock.advance(by: 301)
        parts.servers.issuedTokenType = TokenExchangeRequest.TokenType.accessToken
        let before = parts.keystore.state
        await #expect(throws: AuthError.self) { _ = try await parts.resourceTokens.token(for: try #require(URL(string: Self.resource))) }
        #expect(parts.keystore.state == before)
        #expect(parts.servers.presentations.count == 1)
    }

    @Test("unlinking the identity drops the grants chained from it, and only those")
    func unlinkDropsChainedGrants() async throws {
        let parts = Self.parts()
        _ = try await parts.chain.run(try Self.input())
        var state = parts.keystore.state
        let now = parts.clock.now()
        state.users[0].providerData.append(
            LinkedIdentity(
                providerID: "oidc.other", issuer: "https://other.example", federatedID: "ada", profile: Profile(), linkedAt: now,
                tokens: nil)
        )
        state.users[0].store(
            ResourceGrant(resource: "https://api.example/other", issuer: Self.issuerB, providerID: "oidc.as-b", grantedAt: now, tokens: nil)
        )
        _ = try AccountRules.unlink(&state, providerID: "oidc.corp", uid: "u1")
        #expect(state.users[0].resourceGrants.map(\.resource) == ["https://api.example/other"])
    }

    @Test("a provider configured for AS-B for another purpose is lent only with consent: nothing is exchanged without it")
    func borrowedNeedsConsent() async throws {
        let borrowed = Self.config.replacingOccurrences(
            of: #""registeredFor": ["https://api.example/mcp"]"#, with: #""registeredFor": ["https://api.example/other"]"#)
        #expect(borrowed != Self.config)
        let parts = Self.parts(config: borrowed)
        let error = await #expect(throws: AuthError.self) { _ = try await parts.chain.run(try Self.input()) }
        #expect(error?.code == .consentRequired)
        #expect(error?.message.contains("provider oidc.as-b via oidc.corp›") == true, "the command that agrees keeps --via")
        #expect(parts.servers.exchanges.isEmpty && parts.servers.presentations.isEmpty)
        // A yes at the terminal lends it; so does naming it.
        let asked = Self.parts(config: borrowed, prompt: RecordingTerminal(interactive: true, answers: [true]))
        _ = try await asked.chain.run(try Self.input())
        #expect(asked.servers.presentations.count == 1)
        let named = Self.parts(config: borrowed)
        var input = try Self.input()
        input.provider = try ProviderID(parsing: "oidc.as-b")
        _ = try await named.chain.run(input)
        #expect(named.servers.presentations.count == 1)
    }
}
