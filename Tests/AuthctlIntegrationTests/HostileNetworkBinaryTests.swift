import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The real `authctl` binary against a provider that lies or overflows, and in a network
/// with proxies (issue 12, items 5, 6, 8, 9, 11 and 16).
@Suite("authctl binary against hostile networks and providers", .serialized)
final class HostileNetworkBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// No proxy of the machine running the tests leaks in; each test sets its own.
    static let noProxies: [String: String] = [
        "http_proxy": "", "HTTP_PROXY": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "", "ALL_PROXY": "",
        "no_proxy": "", "NO_PROXY": "",
    ]

    func addProvider() async throws {
        let result = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// A browser (curl following the 302) that itself never uses a proxy.
    static let browserWithoutProxy = "curl --noproxy * --silent --show-error --location --max-time 20 --output /dev/null"

    func login(_ extra: [String] = [], environment: [String: String] = [:]) async throws -> AuthctlProcess.Result {
        try await authctl.run(
            ["login", "oidc.fake", "--browser-command", Self.browserWithoutProxy, "--timeout", "20"] + extra,
            environment: Self.noProxies.merging(environment) { $1 })
    }

    @Test("a proxy set in http_proxy, HTTPS_PROXY and ALL_PROXY never sees a sign-in at a provider on 127.0.0.1")
    func proxiesNeverSeeLoopback() async throws {
        let proxy = try CountingListener()
        defer { proxy.stop() }
        try await addProvider()
        let result = try await login(environment: [
            "http_proxy": proxy.url, "HTTPS_PROXY": proxy.url, "ALL_PROXY": proxy.url, "all_proxy": proxy.url,
            "NO_PROXY": "corp.example.com",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(proxy.connections == 0, "the code, verifier and tokens went through the proxy")
        let refreshed = try await authctl.run(
            ["token", "--force-refresh"], environment: Self.noProxies.merging(["http_proxy": proxy.url, "ALL_PROXY": proxy.url]) { $1 })
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(proxy.connections == 0)
    }

    @Test("a request through an unreachable proxy names the proxy (never its password) instead of blaming the provider")
    func unreachableProxyIsNamed() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.remote", "--issuer", "https://provider.invalid", "--client-id", "x"])
        #expect(add.status == 0, "\(add.stderr)")
        // Port 1 on 127.0.0.1 refuses at once: curl connects to the proxy first, nothing leaves the machine.
        let result = try await authctl.run(
            ["login", "oidc.remote", "--no-browser", "--timeout", "5"],
            environment: Self.noProxies.merging(["https_proxy": "http://alice:s3cr3t-proxy-pass@127.0.0.1:1"]) { $1 })
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("proxy http://127.0.0.1:1"), "\(result.stderr)")
        #expect(result.stderr.contains("https_proxy"), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cr3t") && !result.stderr.contains("alice"), "\(result.stderr)")
    }

    @Test("an issuer at http://127.attacker.example is not loopback: plain http is refused (exit 2)")
    func prefixIsNotLoopback() async throws {
        for issuer in ["http://127.attacker.example", "http://127.0.0.1.nip.io", "http://localhost.evil"] {
            let result = try await authctl.run(["providers", "add", "oidc.x", "--issuer", issuer, "--client-id", "x"])
            #expect(result.status == 2, "\(issuer): \(result.stderr)")
            #expect(result.stderr.contains("not https://"), "\(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: authctl.configPath) == nil)
        let ok = try await authctl.run(["providers", "add", "oidc.x", "--issuer", "http://127.0.0.2:9", "--client-id", "x"])
        #expect(ok.status == 0, "an address in 127.0.0.0/8 is loopback: \(ok.stderr)")
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
