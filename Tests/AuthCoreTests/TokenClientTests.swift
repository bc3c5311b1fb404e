import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// An answer with this JSON body.
private func answer(_ json: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
}

/// The one token endpoint client on its own, against a stub transport: what each request
/// carries, and what each answer becomes.
@Suite("The token client")
struct TokenClientTests {
    let discovery = DiscoveryDocument(
        issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!,
        revocationEndpoint: URL(string: "https://idp.example/revoke")!,
        deviceAuthorizationEndpoint: URL(string: "https://idp.example/device")!)

    func provider(secretEnv: String? = nil) throws -> any IdentityProvider {
        var config = ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example")
        config.clientSecretEnv = secretEnv
        return try ProviderRegistry.provider(for: config)
    }

    func client(_ transport: StubTransport, secrets: [String: String] = [:]) -> TokenClient {
        TokenClient(
            transport: transport, clock: ManualClock(), random: SeededRandom(), metadataCache: NoMetadataCache(),
            secrets: StaticSecrets(secrets))
    }

    @Test("a refusal is an AuthError whose OAuth error is a value, whatever the HTTP status")
    func refusalIsTyped() async throws {
        for status in [400, 200] {
            let transport = StubTransport { _ in answer(#"{"error":"invalid_grant","error_description":"gone"}"#, status: status) }
            await #expect {
                _ = try await client(transport).requestTokens(
                    .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, binding: .of(discovery))
            } throws: { error in
                let error = error as? AuthError
                return error?.code == .invalidCredential && error?.oauthError == .invalidGrant
                    && error?.details["oauthError"] == "invalid_grant"
            }
        }
    }

    @Test("the configured secret goes by client_secret_post when the provider lists only that method; never in the URL")
    func secretPost() async throws {
        var postOnly = discovery
        postOnly.tokenEndpointAuthMethodsSupported = ["client_secret_post"]
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer"}"#) }
        let issued = try await client(transport, secrets: ["SECRET": "s3cret"]).requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(secretEnv: "SECRET"), discovery: postOnly, binding: .of(postOnly))
        #expect(issued.response.accessToken == "at" && issued.idTokenClaims == nil)
        let sent = try #require(transport.requests.first)
        let form = FakeHTTP.form(sent.body ?? Data())
        #expect(form["client_secret"] == "s3cret" && form["client_id"] == "client" && sent.headers["Authorization"] == nil)
        #expect(sent.url == discovery.tokenEndpoint && !(sent.url.query ?? "").contains("s3cret"))
    }

    @Test("a workload's grant names the workload's client, never the provider's configured one")
    func workloadClient() async throws {
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer"}"#) }
        let workload = WorkloadClient(clientID: "robot", authentication: .secretEnvironment("ROBOT_SECRET"))
        _ = try await client(transport, secrets: ["ROBOT_SECRET": "r0bot"]).requestTokens(
            .clientCredentials(scopes: ["api"]), provider: try provider(), client: .workload(workload), discovery: discovery,
            binding: .of(discovery))
        let sent = try #require(transport.requests.first)
        let basic = "Basic " + Data("robot:r0bot".utf8).base64EncodedString()
        #expect(sent.headers["Authorization"] == basic)
        #expect(FakeHTTP.form(sent.body ?? Data())["grant_type"] == "client_credentials")
    }

    @Test("a device poll's OAuth error is an answer, not a failure, even with HTTP 200 (GitHub)")
    func pollPending() async throws {
        let transport = StubTransport { _ in answer(#"{"error":"authorization_pending"}"#) }
        let poll = try await client(transport).poll(
            deviceCode: "dc", provider: try provider(), discovery: discovery, binding: .of(discovery))
        #expect(poll == .refused(OAuthErrorResponse(error: "authorization_pending")))
        #expect(FakeHTTP.form(transport.requests.first?.body ?? Data())["device_code"] == "dc")
    }

    @Test("an ID token that comes back is validated when the caller says what it expects: a bad one fails the grant")
    func idTokenValidated() async throws {
        let jwks = discovery.jwksURI
        let transport = StubTransport { request in
            if request.url == jwks { return answer(#"{"keys":[]}"#) }
            return answer(#"{"access_token":"at","token_type":"Bearer","id_token":"not.a.jwt"}"#)
        }
        let tokens = client(transport)
        await #expect {
            _ = try await tokens.requestTokens(
                .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, idToken: .init(nonce: nil),
                binding: .of(discovery))
        } throws: { ($0 as? AuthError)?.code == .invalidCredential }
        // Without an expectation (a workload's grant) it is not looked at.
        let issued = try await tokens.requestTokens(
            .refreshToken("r", scopes: nil), provider: try provider(), discovery: discovery, binding: .of(discovery))
        #expect(issued.idTokenClaims == nil)
    }

    @Test("an ID token from a server that publishes no keys (no jwks_uri) is refused: it cannot be validated")
    func idTokenWithoutKeys() async throws {
        var keyless = discovery
        keyless.jwksURI = nil
        let transport = StubTransport { _ in answer(#"{"access_token":"at","token_type":"Bearer","id_token":"a.b.c"}"#) }
        await #expect {
            _ = try await client(transport).requestTokens(
                .refreshToken("r", scopes: nil), provider: try provider(), discovery: keyless, idToken: .init(nonce: nil),
                binding: .of(keyless))
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .providerNotConfigured && "\(error.message)".contains("jwks_uri")
        }
        #expect(transport.requests.count == 1, "nothing is fetched for keys that are not published")
    }

    @Test("revocation and introspection share one form: the token, its hint and the client's authentication")
    func tokenHint() async throws {
        let transport = StubTransport { _ in HTTPResponse(status: 200, body: Data()) }
        let answer = try await client(transport, secrets: ["SECRET": "s"]).tokenHint(
            "rt", isRefreshToken: true, at: try #require(discovery.revocationEndpoint), provider: try provider(secretEnv: "SECRET"),
            discovery: discovery, binding: .of(discovery))
        #expect(answer.status == 200 && answer.error == nil)
        let sent = try #require(transport.requests.first)
        #expect(FakeHTTP.form(sent.body ?? Data()) == ["token": "rt", "token_type_hint": "refresh_token"])
        #expect(sent.headers["Authorization"]?.hasPrefix("Basic ") == true)
    }
}

/// The architecture holds: the token endpoint is reached through the token client alone.
@Suite("One token endpoint client")
struct TokenClientBoundaryTests {
    /// Sources/AuthCore, found from this file.
    static let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AuthCore")

    /// The Swift files of AuthCore that contain `text`, relative to it.
    static func files(containing text: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: core.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let source = try String(contentsOf: core.appendingPathComponent(path), encoding: .utf8)
            if source.contains(text) { found.append(path) }
        }
        return found.sorted()
    }

    @Test("token, device authorization, revocation and introspection requests are made in Token/ only")
    func oneClient() throws {
        #expect(try Self.files(containing: "TokenRequest(") == ["Token/TokenClient.swift"])
        #expect(try Self.files(containing: "DeviceAuthorizationRequest(") == ["Token/TokenClient.swift"])
        #expect(try Self.files(containing: "\"token_type_hint\"") == ["Token/TokenClient.swift"])
        #expect(try Self.files(containing: "TokenResponse.parse(") == ["Token/TokenClient.swift"])
    }

    @Test("client authentication is made in one place")
    func oneAuthenticator() throws {
        #expect(try Self.files(containing: "ClientAssertion.signed(") == ["Token/ClientAuthenticator.swift"])
        #expect(try Self.files(containing: ".basic(secret:") == ["Token/ClientAuthenticator.swift"])
    }
}
