import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// `CachedRequestPlan` (the request program's `request`, issue 37) held to AuthCore's rules:
/// what it sends is what `ResourceRequest` would send from the same cached grant, and wherever
/// the full program could refuse, refresh or step up, it plans nothing.
/// Tests/Front/request-agreement.py holds the programs themselves to each other.
struct CachedRequestTests {
    static let now = 1_800_000_000.0
    static let resource = "https://api.example/mcp"

    static func user(_ tokens: CachedTokens?, resource: String = resource) -> CachedUser {
        var grant = CachedGrant(resource: resource, grantedAt: now - 60, tokens: tokens)
        grant.issuer = "https://as.example"
        grant.providerId = "oidc.as"
        var user = CachedUser(uid: "u", lastProviderId: nil, providerData: [])
        user.resourceGrants = [grant]
        return user
    }

    static func tokens(type: String = "Bearer", expiresAt: Double? = now + 3600, egress: [String]? = nil) -> CachedTokens {
        CachedTokens(accessToken: "at-1", tokenType: type, expiresAt: expiresAt, scopes: ["read"], egress: egress)
    }

    static func plan(_ arguments: [String], _ user: CachedUser = user(tokens())) -> CachedRequestPlan? {
        CachedRequest.parse(["request"] + arguments).flatMap { CachedRequestPlan.make($0, user: user, now: now) }
    }

    @Test(
        "what is sent: the method upper-cased (GET, POST with --data), the headers in order, a name twice keeping its last value, then the token"
    )
    func sent() throws {
        let get = try #require(Self.plan([Self.resource + "/items"]))
        #expect(get.method == "GET" && get.body == .none && get.host == "api.example")
        #expect(get.headerLines == ["Authorization: Bearer at-1"])
        let post = try #require(Self.plan([Self.resource, "--data", "{}", "-H", "X-A: 1", "-H", "X-B:  b ", "-H", "X-A: 2"]))
        #expect(post.method == "POST" && post.body == .text("{}"))
        #expect(post.headerLines == ["X-A: 2", "X-B: b", "Authorization: Bearer at-1"])
        #expect(try #require(Self.plan(["-X", "patch", Self.resource, "--data", "@body.json"])).method == "PATCH")
        #expect(try #require(Self.plan(["-X", "patch", Self.resource, "--data", "@body.json"])).body == .file("body.json"))
    }

    @Test("ResourceRequest's refusals plan nothing: a method not of letters, an Authorization or DPoP header, a name that is no token")
    func refusals() {
        for arguments in [
            ["-X", "G3T", Self.resource], ["-X", String(repeating: "A", count: 17), Self.resource],
            [Self.resource, "-H", "authorization: x"], [Self.resource, "-H", "dpop: x"], [Self.resource, "-H", "X(A): 1"],
            [Self.resource, "--data", "@"],
        ] {
            #expect(Self.plan(arguments) == nil, "\(arguments)")
        }
        // And the same refusals from the full program's own rules.
        #expect(throws: AuthError.self) { try HTTPRequest(url: URL(string: Self.resource)!, headers: ["X(A)": "1"]).checkHeaders() }
    }

    @Test("ResourceTokens' cached answer only: a token within 60 s of expiry, a DPoP one, one marked for sign-in: nothing")
    func cachedOnly() {
        #expect(Self.plan([Self.resource], Self.user(Self.tokens(expiresAt: Self.now + 61))) == nil)
        #expect(Self.plan([Self.resource], Self.user(Self.tokens(expiresAt: Self.now + 62))) != nil)
        #expect(Self.plan([Self.resource], Self.user(Self.tokens(type: "DPoP"))) == nil)
        var marked = Self.tokens()
        marked.needsSignInSince = Self.now - 1
        #expect(Self.plan([Self.resource], Self.user(marked)) == nil)
        #expect(Self.plan(["https://api.example/other"]) == nil)
        #expect(Self.plan(["https://api.example/mcp?q=1"]) == nil)
    }

    @Test(
        "the egress rule: an origin the grant's binding names (the port always written), else nothing",
        arguments: [
            ("https://api.example:443", true), ("https://api.example", false), ("https://api.example:8443", false),
            ("http://api.example:443", false),
        ])
    func egress(origin: String, permitted: Bool) throws {
        let user = Self.user(Self.tokens(egress: ["https://as.example", "https://as.example:443", origin]))
        #expect((Self.plan([Self.resource], user) != nil) == permitted)
        // SecretBinding.permits says the same of the stored form.
        let binding = SecretBinding(issuer: "https://as.example", origins: [Origin(storedForm: origin)].compactMap { $0 })
        #expect(binding.permits(try #require(URL(string: Self.resource))) == permitted)
    }

    @Test("the origin of a plain URL is Origin's description")
    func origins() throws {
        for url in ["https://api.example/mcp", "https://api.example:8443/x", "http://127.0.0.1:8080/x", "http://127.0.0.1/x"] {
            #expect(CachedRequestPlan.origin(of: url)?.text == Origin(try #require(URL(string: url)))?.description)
        }
    }

    @Test("head lines as LibCurl reads them: a status, a WWW-Authenticate header in any case, the end")
    func headLines() {
        func line(_ text: String) -> CachedRequestPlan.HeadLine {
            Array(text.utf8).withUnsafeBufferPointer { CachedRequestPlan.headLine($0) }
        }
        #expect(line("HTTP/1.1 200 OK\r\n") == .status(200))
        #expect(line("HTTP/2 401\r\n") == .status(401))
        #expect(line("HTTP/1.1 abc\r\n") == .status(nil))
        #expect(line("HTTP/1.1 200OK\r\n") == .status(nil))
        #expect(line("www-authenticate: Bearer\r\n") == .challenge(asksScope: false))
        #expect(line("WWW-Authenticate : Bearer error=\"INSUFFICIENT_SCOPE\"\r\n") == .challenge(asksScope: true))
        #expect(line("WWW-Authenticate: Basic realm=\"x\"\r\n") == .challenge(asksScope: false))
        #expect(line("X-WWW-Authenticate: Bearer\r\n") == .other)
        #expect(line("\r\n") == .end)
    }

    @Test("given as it is: any answer but a 401 and a 403 whose challenge may ask for scope (ResourceRequest.verdict's first attempt)")
    func streams() {
        #expect(CachedRequestPlan.streams(status: 200, asksScope: true))
        #expect(CachedRequestPlan.streams(status: 403, asksScope: false))
        #expect(CachedRequestPlan.streams(status: 500, asksScope: true))
        #expect(!CachedRequestPlan.streams(status: 401, asksScope: false))
        #expect(!CachedRequestPlan.streams(status: 403, asksScope: true))
    }

    @Test("libcurl's reason as Sanitize.text(_:limit: 160) gives it, for ASCII")
    func reasons() {
        for text in ["Failed to connect", "a\u{07}b\u{7F}c\td", String(repeating: "x", count: 200), String(repeating: "y", count: 160)] {
            #expect(CachedRequestWords.reason(Array(text.utf8)) == Sanitize.text(text, limit: 160), "\(text.debugDescription)")
        }
        #expect(CachedRequestWords.reason(Array("é".utf8)) == nil)
    }
}
