import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A sign-in for a protected resource (docs/resources.md) through the same session:
/// `resource` on the authorization and token requests (RFC 8707), and the scopes asked exactly.
@Suite("A resource's sign-in session")
struct ResourceSessionTests {
    let discovery = DiscoveryDocument(
        issuer: "https://as.example", authorizationEndpoint: URL(string: "https://as.example/authorize")!,
        tokenEndpoint: URL(string: "https://as.example/token")!, jwksURI: URL(string: "https://as.example/jwks")!)
    let attempt = AuthorizationAttempt.generate(using: SeededRandom())
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let resource = URL(string: "https://api.example/mcp")!

    func session(scopes: [String], parameters: [(String, String)] = []) throws -> SignInSession {
        let provider = try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.as", clientID: "client", issuer: "https://as.example"))
        var options = FlowOptions(scopes: scopes, parameters: parameters, timeout: 60)
        options.resource = resource
        return try SignInSession(provider: provider, options: options, attempt: attempt, startPath: "/start/abc")
    }

    @Test("the authorization request names the resource and asks only the scopes chosen (no openid added)")
    func authorizationRequest() throws {
        var session = try session(scopes: ["read", "read", "write"])
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(discovery), now: now)
        let action = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        guard case .listen(let machine, _, _) = action, let url = machine.expectation.start?.authorizationURL else {
            Issue.record("listen with a start page, got \(action)")
            return
        }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "resource" }?.value == "https://api.example/mcp")
        #expect(items.first { $0.name == "scope" }?.value == "read write")
        #expect(machine.expectation.issuer == "https://as.example", "RFC 9207: iss is checked against the server")
    }

    @Test("the code exchange carries the resource, and the credential is made for it")
    func exchange() throws {
        var session = try session(scopes: ["read"])
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(discovery), now: now)
        _ = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.browserOpened(true), now: now)
        _ = session.next(.done, now: now)
        #expect(session.next(.done, now: now) == .awaitRedirect)
        let action = session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
        guard case .exchange(_, _, _, _, let sent) = action else {
            Issue.record("an exchange, got \(action)")
            return
        }
        #expect(sent == [resource])
        let tokens = TokenClient.Issued(response: TokenResponse(accessToken: "at"))
        guard case .makeCredential(let making) = session.next(.tokens(tokens), now: now) else {
            Issue.record("make the credential")
            return
        }
        #expect(making.resource == resource)
    }

    @Test("a sign-in for several resources names each on the authorization request, and asks the code exchange for all")
    func severalResources() throws {
        let other = URL(string: "https://files.example/docs")!
        let provider = try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.as", clientID: "client", issuer: "https://as.example"))
        var options = FlowOptions(scopes: ["read"], timeout: 60)
        options.resource = resource
        options.moreResources = [other]
        var session = try SignInSession(provider: provider, options: options, attempt: attempt, startPath: "/start/abc")
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(discovery), now: now)
        let action = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        guard case .listen(let machine, _, _) = action, let url = machine.expectation.start?.authorizationURL else {
            Issue.record("listen with a start page, got \(action)")
            return
        }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.filter { $0.name == "resource" }.map(\.value) == ["https://api.example/mcp", "https://files.example/docs"])
        _ = session.next(.done, now: now)
        _ = session.next(.browserOpened(true), now: now)
        _ = session.next(.done, now: now)
        #expect(session.next(.done, now: now) == .awaitRedirect)
        guard case .exchange(_, _, _, _, let sent) = session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now) else {
            Issue.record("an exchange")
            return
        }
        #expect(sent == [resource, other], "the token names every resource: narrowing would narrow a rotated refresh token too")
    }

    @Test("the token request sends every resource asked, in order (RFC 8707 §2.2)")
    func tokenRequestSeveral() throws {
        var request = TokenRequest(
            tokenEndpoint: URL(string: "https://as.example/token")!, clientID: "client", grant: .refreshToken("rt", scopes: nil),
            authentication: .none)
        request.resource = resource
        request.moreResources = [URL(string: "https://files.example/docs")!]
        let body = String(decoding: request.httpRequest.body ?? Data(), as: UTF8.self)
        #expect(body.contains("resource=https%3A%2F%2Fapi.example%2Fmcp&resource=https%3A%2F%2Ffiles.example%2Fdocs"))
    }

    @Test("a custom parameter may not set the resource")
    func resourceParameterRefused() {
        #expect(throws: AuthError.self) { try session(scopes: [], parameters: [("resource", "https://elsewhere.example")]) }
    }

    @Test("the token request sends resource (RFC 8707 §2.2)")
    func tokenRequest() throws {
        var request = TokenRequest(
            tokenEndpoint: URL(string: "https://as.example/token")!, clientID: "client", grant: .refreshToken("rt", scopes: nil),
            authentication: .none)
        request.resource = resource
        let body = String(decoding: request.httpRequest.body ?? Data(), as: UTF8.self)
        #expect(body.contains("resource=https%3A%2F%2Fapi.example%2Fmcp"))
    }
}
