import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `--flow implicit` (docs/sign-in.md, issue 15 item 2): for providers that offer nothing else, an
/// ID token by form_post with a nonce, and a warning that the code flow is safer.
@Suite("--flow implicit", .serialized)
final class ImplicitFlowTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addImplicit() async throws {
        let added = try await authctl.run([
            "providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID, "--flow", "implicit",
        ])
        #expect(added.status == 0, "\(added.stderr)")
    }

    func login(_ extra: [String] = []) async throws -> InProcessAuthctl.Result {
        try await authctl.run(
            ["login", "oidc.fake", "--timeout", "120"] + extra)
    }

    @Test("login asks for id_token by form_post with a nonce and no PKCE, warns that the code flow is safer, and signs in")
    func signsIn() async throws {
        try await addImplicit()
        let result = try await login(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("code flow") && result.stderr.contains("safer"), "\(result.stderr)")
        let asked = provider.lastAuthorizationRequest
        #expect(asked["response_type"] == "id_token" && asked["response_mode"] == "form_post")
        #expect(asked["nonce"]?.isEmpty == false && asked["code_challenge"] == nil)
        #expect(provider.count("token") == 0, "no code, no token endpoint")
        #expect(result.json?["isNewUser"] == .bool(true))
        let idToken = try await authctl.run(["token", "--id-token"])
        #expect(idToken.status == 0 && idToken.stdout.split(separator: ".").count == 3, "\(idToken.stderr)")
        let status = try await authctl.run(["status"])
        #expect(status.stdout.contains("ID token only"), "\(status.stdout)")
    }

    @Test(
        "an implicit ID token with a wrong nonce or audience is refused (exit 4) and nothing is stored", arguments: ["nonce", "audience"])
    func refused(_ what: String) async throws {
        try await addImplicit()
        provider.update { behaviour in
            if what == "nonce" { behaviour.idTokenNonce = "replayed" } else { behaviour.idTokenAudience = .string("someone-else") }
        }
        let result = try await login()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test(
        "--flow implicit is for oidc.* providers only, and --flow takes code or implicit",
        arguments: [
            ["microsoft.com", "--client-id", "c", "--flow", "implicit"],
            ["oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--flow", "hybrid"],
        ])
    func onlyOIDC(_ arguments: [String]) async throws {
        let result = try await authctl.run(["providers", "add"] + arguments)
        #expect(result.status == 2 && result.stderr.contains("--flow"), "\(result.stderr)")
    }
}
