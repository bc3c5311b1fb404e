import AuthCoreTestSupport
import Foundation
import Testing

/// A provider that is down fails at once, even with its discovery document cached (issue 38, item 2).
@Suite("a provider that is down, its discovery cached", .serialized)
final class ProviderDownTests {
    let authctl = AuthctlProcess()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test("login --no-browser with a cached discovery and the provider stopped: exit 3 at once, naming its address")
    func downWithCachedDiscovery() async throws {
        let provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
        let address = provider.server.baseURL.replacingOccurrences(of: "http://", with: "")
        // A sign-in puts the discovery document in the cache; then the provider goes away.
        let first = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(first.status == 0, "\(first.stderr)")
        provider.server.stop()
        let started = Date()
        let login = try await authctl.run(["login", "oidc.fake", "--no-browser", "--timeout", "60"])
        let seconds = Date().timeIntervalSince(started)
        #expect(login.status == 3, "\(login.stderr)")
        #expect(seconds < 20, "it failed before waiting for a redirect (took \(seconds) s)")
        #expect(login.stderr.contains(address), "names the provider's address \(address): \(login.stderr)")
        #expect(!login.stderr.contains("Open this URL"), "no URL printed for a provider that is down: \(login.stderr)")
    }
}
