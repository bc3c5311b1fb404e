import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl token` refreshes early, `--min-ttl` before the token expires (issue 25, item 4).
/// When that early refresh cannot reach the provider, the token in hand still works: it is
/// printed, with a warning on stderr, and the command succeeds. Once it has expired, or when
/// `--force-refresh` asked for a new one, the network failure is the answer (exit 3).
@Suite("a still-valid token is printed when an early refresh cannot reach the provider", .serialized)
final class TokenOfflineTests {
    let provider: FakeIdentityProvider
    let clock = InProcessAuthctl.fixedClock()
    let authctl: InProcessAuthctl

    init() async throws {
        provider = try FakeIdentityProvider()
        authctl = InProcessAuthctl(clock: clock)
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Signs in, then takes the provider off the network; returns the access token signed in with.
    func signInThenGoOffline() async throws -> String {
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        let token = try await authctl.run(["token"])
        let value = token.stdout.trimmingCharacters(in: .newlines)
        #expect(token.status == 0 && value.hasPrefix("at-"), "\(token.stderr)")
        provider.server.stop()
        return value
    }

    @Test("30 s before expiry, with --min-ttl 60 and the provider unreachable: the token, a warning, exit 0, the keystore unchanged")
    func earlyRefreshOffline() async throws {
        let value = try await signInThenGoOffline()
        clock.advance(by: 3600 - 30)
        let before = authctl.keystoreBytes()
        for format in ["raw", "json", "header"] {
            let token = try await authctl.run(["token", "--format", format])
            #expect(token.status == 0, "\(format): \(token.stderr)")
            #expect(token.stdout.contains(value), "\(format): \(token.stdout)")
            #expect(token.stderr.contains("warning") && token.stderr.contains("could not refresh"), "\(format): \(token.stderr)")
            #expect(token.stderr.contains("still valid for 30 s"), "says how long it is still valid: \(token.stderr)")
        }
        // kubectl-exec gives the ID token with its own expiry: kubectl asks again once it passes.
        let kubectl = try await authctl.run(["token", "--format", "kubectl-exec", "--min-ttl", "3600"])
        #expect(kubectl.status == 0 && kubectl.stdout.contains("expirationTimestamp"), "\(kubectl.stderr)")
        #expect(kubectl.stderr.contains("could not refresh"), "\(kubectl.stderr)")
        // exec gives its command the same token, with the same warning.
        let file = authctl.home + "/child-token"
        let exec = try await authctl.run(["exec", "--", "sh", "-c", "printf %s \"$AUTHCTL_TOKEN\" > \"$1\"", "sh", file])
        #expect(exec.status == 0 && exec.stderr.contains("could not refresh"), "\(exec.stderr)")
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == value)
        #expect(authctl.keystoreBytes() == before, "nothing stored")
    }

    @Test("the provider unreachable and the token expired, or --force-refresh: exit 3 as before, no token printed")
    func noFallback() async throws {
        _ = try await signInThenGoOffline()
        clock.advance(by: 3600 - 30)
        let forced = try await authctl.run(["token", "--force-refresh"])
        #expect(forced.status == 3 && forced.stdout.isEmpty, "\(forced.stderr)")
        clock.advance(by: 31)
        let expired = try await authctl.run(["token"])
        #expect(expired.status == 3 && expired.stdout.isEmpty, "\(expired.stderr)")
    }
}
