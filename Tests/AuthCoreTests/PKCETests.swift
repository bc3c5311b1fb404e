import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test("the S256 challenge matches the RFC 7636 Appendix B example")
    func appendixB() {
        let pkce = PKCE(codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.codeChallenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.codeChallengeMethod == "S256")
    }

    @Test("a generated verifier has 43 unreserved characters and differs per attempt")
    func generated() {
        let random = SystemRandomSource()
        let first = PKCE.generate(using: random), second = PKCE.generate(using: random)
        #expect(first.codeVerifier.count == 43)
        #expect(first.codeVerifier.allSatisfy { $0.isLetter || $0.isNumber || "-._~".contains($0) })
        #expect(first.codeVerifier != second.codeVerifier)
    }

    @Test("state and nonce carry 256 bits each and are fresh per attempt")
    func attempt() {
        let random = SystemRandomSource()
        let a = AuthorizationAttempt.generate(using: random), b = AuthorizationAttempt.generate(using: random)
        #expect(Base64URL.decode(a.state)?.count == 32)
        #expect(a.state != b.state && a.nonce != b.nonce && a.state != a.nonce)
    }
}

@Suite("Authorization request")
struct AuthorizationRequestTests {
    @Test("every reserved parameter is refused by name", arguments: AuthorizationRequest.reservedParameters.sorted())
    func reserved(name: String) {
        #expect(throws: AuthError.self) { try AuthorizationRequest.checkCustomParameters([(name, "x")]) }
        do {
            try AuthorizationRequest.checkCustomParameters([("prompt", "login"), (name, "x")])
        } catch let error as AuthError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("'\(name)'"))
        } catch {}
    }

    @Test("openid is always first and scopes are not repeated")
    func scopes() {
        #expect(
            AuthorizationRequest.mergeScopes(["profile", "email"], ["email", "offline_access"]) == [
                "openid", "profile", "email", "offline_access",
            ])
    }

    @Test("the URL carries S256 PKCE, state, nonce and the custom parameters")
    func url() throws {
        let request = AuthorizationRequest(
            authorizationEndpoint: URL(string: "https://idp.example/authorize")!, issuer: "https://idp.example", clientID: "app",
            redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, scopes: ["openid"], state: "S", nonce: "N",
            pkce: PKCE(codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), additionalParameters: [("prompt", "login")])
        let query = try #require(FormURLEncoding.decode(try request.url().query ?? ""))
        let parameters = Dictionary(query, uniquingKeysWith: { (first: String, _: String) in first })
        #expect(parameters["code_challenge_method"] == "S256")
        #expect(parameters["code_challenge"] == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(parameters["redirect_uri"] == "http://127.0.0.1:5000/callback")
        #expect(parameters["state"] == "S" && parameters["nonce"] == "N" && parameters["prompt"] == "login")
        #expect(parameters["code_verifier"] == nil)
    }

    @Test("no scopes chosen (a resource that names none): no scope parameter, not an empty one (RFC 6749 §3.3: the server's default)")
    func noScope() throws {
        let request = AuthorizationRequest(
            authorizationEndpoint: URL(string: "https://idp.example/authorize")!, issuer: "https://idp.example", clientID: "app",
            redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, scopes: [], state: "S", nonce: "N",
            pkce: PKCE(codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(!request.parameters.contains { $0.0 == "scope" })
        #expect(try request.url().query?.contains("scope=") == false)
    }

    @Test("an endpoint's own query is kept; an endpoint with a fragment (RFC 6749 §3.1) is refused, never given the parameters")
    func endpointQueryAndFragment() throws {
        func request(_ endpoint: String) -> AuthorizationRequest {
            AuthorizationRequest(
                authorizationEndpoint: URL(string: endpoint)!, issuer: "https://idp.example", clientID: "app",
                redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, scopes: ["openid"], state: "S", nonce: "N",
                pkce: PKCE(codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        }
        let withQuery = try request("https://idp.example/authorize?p=B2C_1_signin").url()
        #expect(withQuery.query?.hasPrefix("p=B2C_1_signin&response_type=code&") == true, "\(withQuery)")
        #expect(withQuery.fragment == nil)
        #expect(throws: AuthError.self) { try request("https://idp.example/authorize#section").url() }
    }
}
