import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The real `authctl` binary in a network with proxies (issue 12, items 5, 6, 9 and 16): what
/// libcurl makes of the process's environment. (A provider that lies or overflows:
/// HostileProviderCommandsTests, in-process.)
@Suite("authctl binary in networks with proxies", .serialized)
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
        let add = try await authctl.run([
            "providers", "add", "oidc.remote", "--issuer", "https://provider.invalid", "--client-id", "x", "--no-check",
        ])
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
        let ok = try await authctl.run(["providers", "add", "oidc.x", "--issuer", "http://127.0.0.2:9", "--client-id", "x", "--no-check"])
        #expect(ok.status == 0, "an address in 127.0.0.0/8 is loopback: \(ok.stderr)")
    }
}
