import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Advice that uses what authctl knows instead of a placeholder (issue 25, item 10):
/// `login` without a provider, and the issuer to give `providers add` when discovery names
/// another one.
@Suite("advice fills in what authctl knows", .serialized)
final class KnownValuesTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func add(_ id: String) async throws {
        let added = try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(added.status == 0, "\(added.stderr)")
    }

    @Test("login without a provider on a fresh machine says to add one, with the command")
    func freshMachine() async throws {
        let result = try await authctl.run(["login"])
        #expect(result.status == 7, "provider-not-configured: \(result.stderr)")
        #expect(result.stderr.contains("authctl providers add"), "\(result.stderr)")
        #expect(!result.stderr.contains("authctl login PROVIDER"), "\(result.stderr)")
    }

    @Test("login without a provider signs in to the only configured one")
    func onlyProvider() async throws {
        try await add("oidc.fake")
        let result = try await authctl.run(["login", "--timeout", "120", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.json?["providerId"] == "oidc.fake", "\(result.stdout)")
    }

    @Test("login without a provider when several are configured lists them, nothing opened")
    func severalProviders() async throws {
        try await add("oidc.fake")
        try await add("oidc.second")
        let result = try await authctl.run(["login", "--timeout", "120"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("oidc.fake") && result.stderr.contains("oidc.second"), "\(result.stderr)")
        #expect(result.stderr.contains("authctl login oidc.fake"), "a command to copy: \(result.stderr)")
        #expect(provider.count("authorize") == 0)
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("a discovery document that names another issuer: the advice gives the provider and that issuer, not ID and URL")
    func issuerMismatch() async throws {
        try await add("oidc.fake")
        provider.update { $0.discoveryIssuer = provider.issuer + "/" }
        let result = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(result.status == 7, "\(result.stderr)")
        #expect(result.stderr.contains("authctl providers add oidc.fake --issuer \(provider.issuer)/"), "\(result.stderr)")
        #expect(!result.stderr.contains(" ID ") && !result.stderr.contains("--issuer URL"), "\(result.stderr)")
    }
}
