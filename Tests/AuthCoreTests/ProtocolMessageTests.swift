import AuthCore
import Foundation
import Testing

@Suite("Token responses (RFC 6749 §5)")
struct TokenResponseTests {
    func parse(_ status: Int, _ body: String) throws -> TokenResponse {
        try TokenResponse.parse(HTTPResponse(status: status, body: Data(body.utf8)), host: "idp.example")
    }

    @Test("expires_in is accepted as a number or a numeric string, and token_type in any case")
    func lenientFields() throws {
        #expect(try parse(200, #"{"access_token":"a","token_type":"bearer","expires_in":"3600"}"#).expiresIn == 3600)
        #expect(try parse(200, #"{"access_token":"a","token_type":"BEARER","expires_in":60}"#).expiresIn == 60)
    }

    @Test("an absurd expires_in is bounded")
    func bounded() throws {
        #expect(try parse(200, #"{"access_token":"a","token_type":"Bearer","expires_in":1e12}"#).expiresIn == 365 * 24 * 3600)
        #expect(try parse(200, #"{"access_token":"a","token_type":"Bearer","expires_in":-5}"#).expiresIn == 1)
    }

    @Test("a response without access_token or token_type, or with another token type, is refused")
    func required() {
        for body in [#"{"token_type":"Bearer"}"#, #"{"access_token":"a"}"#, #"{"access_token":"a","token_type":"mac"}"#] {
            #expect { try parse(200, body) } throws: { ($0 as? AuthError)?.code == .networkRequestFailed }
        }
    }

    @Test("an OAuth error is invalid-credential with a sanitized description")
    func oauthError() {
        #expect { try parse(400, #"{"error":"invalid_grant","error_description":"bad\u001b[31m code"}"#) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .invalidCredential && error.message.contains("invalid_grant") && !error.message.contains("\u{1B}")
        }
    }

    @Test("the next step fits the OAuth error: client errors point at the client's registration, invalid_grant at signing in")
    func nextSteps() {
        #expect { try parse(401, #"{"error":"invalid_client"}"#) } throws: {
            ($0 as? AuthError)?.message.contains("client id and its secret") == true
        }
        #expect { try parse(400, #"{"error":"invalid_grant"}"#) } throws: {
            ($0 as? AuthError)?.message.description.hasSuffix("Sign in again") == true
        }
    }

    @Test(
        "an HTML error page, a 5xx or a redirect is network-request-failed",
        arguments: [(500, "<html>oops</html>"), (302, ""), (200, "<html></html>")])
    func notTheProtocol(status: Int, body: String) {
        #expect { try parse(status, body) } throws: { ($0 as? AuthError)?.code == .networkRequestFailed }
    }
}

@Suite("Discovery (OpenID Connect Discovery 1.0)")
struct DiscoveryDocumentTests {
    func document(issuer: String, endpoint: String = "https://idp.example") -> Data {
        Data(
            """
            {"issuer":"\(issuer)","authorization_endpoint":"\(endpoint)/authorize","token_endpoint":"\(endpoint)/token","jwks_uri":"\(endpoint)/jwks"}
            """.utf8)
    }

    @Test("the issuer must equal the configured issuer exactly")
    func exactIssuer() throws {
        let source = URL(string: "https://idp.example/.well-known/openid-configuration")!
        _ = try DiscoveryDocument.parse(document(issuer: "https://idp.example"), expectedIssuer: "https://idp.example", source: source)
        #expect {
            try DiscoveryDocument.parse(document(issuer: "https://idp.example/"), expectedIssuer: "https://idp.example", source: source)
        } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured
        }
    }

    @Test("plain http endpoints off loopback are refused; loopback http is allowed")
    func endpointPolicy() throws {
        let source = URL(string: "https://idp.example/.well-known/openid-configuration")!
        #expect {
            try DiscoveryDocument.parse(
                document(issuer: "https://idp.example", endpoint: "http://idp.example"), expectedIssuer: "https://idp.example",
                source: source)
        } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured
        }
        _ = try DiscoveryDocument.parse(
            document(issuer: "http://127.0.0.1:9", endpoint: "http://127.0.0.1:9"), expectedIssuer: "http://127.0.0.1:9", source: source)
    }

    @Test("a document missing required fields is provider-not-configured")
    func missingFields() {
        #expect {
            try DiscoveryDocument.parse(
                Data(#"{"issuer":"https://idp.example"}"#.utf8), expectedIssuer: "https://idp.example",
                source: URL(string: "https://idp.example")!)
        } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured
        }
    }
}

@Suite("Provider ids and configuration")
struct ProviderConfigTests {
    @Test(
        "aliases and oidc names parse; anything else is invalid-argument",
        arguments: [
            ("microsoft", "microsoft.com"), ("apple", "apple.com"), ("oidc.my-idp_2", "oidc.my-idp_2"),
        ])
    func valid(text: String, expected: String) throws {
        #expect(try ProviderID(parsing: text).rawValue == expected)
    }

    @Test("bad provider ids are refused", arguments: ["oidc.", "oidc.Upper", "google", "oidc.a b", "oidc.x/y"])
    func invalid(text: String) {
        #expect { try ProviderID(parsing: text) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
    }

    @Test("an oidc provider needs an https issuer (http only on loopback)")
    func issuer() throws {
        #expect(throws: AuthError.self) { try ProviderConfig(id: "oidc.a", clientID: "c").validate() }
        #expect(throws: AuthError.self) { try ProviderConfig(id: "oidc.a", clientID: "c", issuer: "http://idp.example").validate() }
        try ProviderConfig(id: "oidc.a", clientID: "c", issuer: "http://127.0.0.1:8080/o").validate()
        try ProviderConfig(id: "oidc.a", clientID: "c", issuer: "https://idp.example").validate()
    }

    @Test("listen addresses must be loopback")
    func listenAddress() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8400") == ListenAddress(host: "127.0.0.1", port: 8400))
        #expect(try ListenAddress(parsing: "[::1]:0") == ListenAddress(host: "::1", port: 0))
        #expect(throws: AuthError.self) { try ListenAddress(parsing: "0.0.0.0:8400") }
        #expect(throws: AuthError.self) { try ListenAddress(parsing: "192.168.1.2:80") }
    }
}
