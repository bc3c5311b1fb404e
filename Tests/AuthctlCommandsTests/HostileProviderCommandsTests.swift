import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The commands, in-process, against a provider that lies or overflows (issue 12, items 8,
/// 11 and 16).
@Suite("authctl commands against hostile providers", .serialized)
final class HostileProviderCommandsTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addProvider() async throws {
        let result = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func login(_ extra: [String] = []) async throws -> InProcessAuthctl.Result {
        try await authctl.run(["login", "oidc.fake", "--timeout", "120"] + extra)
    }

    @Test("a token endpoint that answers 200 with invalid_grant is the provider's refusal: exit 4, keystore unchanged")
    func errorWithStatus200() async throws {
        try await addProvider()
        provider.behaviour.tokenEndpointOverride = FakeHTTP.json(
            .object(["error": "invalid_grant", "error_description": "The code has expired"]), status: 200)
        let result = try await login()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("invalid_grant") && result.stderr.contains("The code has expired"), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test(
        "expires_in \"NaN\" from the provider leaves a keystore that status and token still read",
        arguments: [JSONValue.string("NaN"), .string("Infinity"), .string("-5"), .string("1e300"), .number(1e300)])
    func nonFiniteLifetime(_ lifetime: JSONValue) async throws {
        try await addProvider()
        provider.behaviour.accessTokenLifetime = lifetime
        let result = try await login()
        #expect(result.status == 0, "\(result.stderr)")
        let status = try await authctl.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        let token = try await authctl.run(["token"])
        #expect(token.status == 0 && token.stdout.hasPrefix("at-"), "\(token.stderr)")
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    @Test("a 2 MiB answer from the token endpoint is refused as too large (exit 3), nothing stored")
    func oversizedTokenResponse() async throws {
        try await addProvider()
        let padding = String(repeating: "x", count: 2 << 20)
        provider.behaviour.tokenEndpointOverride = FakeHTTP.json(
            .object(["access_token": "at-big", "token_type": "Bearer", "padding": .string(padding)]))
        let result = try await login()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("too large") && result.stderr.contains("127.0.0.1"), "\(result.stderr)")
        #expect(!result.stderr.contains("could not reach"), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("a validly signed 5 MB ID token is refused (exit 3), not stored")
    func hugeIDToken() async throws {
        try await addProvider()
        provider.behaviour.name = String(repeating: "A", count: 5_000_000)
        let result = try await login()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("too large"), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("every request to the provider says User-Agent: authctl/VERSION")
    func userAgent() async throws {
        try await addProvider()
        let result = try await login()
        #expect(result.status == 0, "\(result.stderr)")
        // `authctl 0.1.0 (commit …)`: the version is the second word.
        let words = try await authctl.run(["--version"]).stdout.split(separator: " ")
        let version = words.count > 1 ? String(words[1]) : ""
        // `/authorize` is the browser's request, not authctl's.
        let agents = provider.userAgents.filter { $0.path != "/authorize" }.map(\.userAgent)
        #expect(!version.isEmpty && agents.count >= 3)
        #expect(agents.allSatisfy { $0 == "authctl/\(version)" }, "\(Set(agents))")
    }
}
