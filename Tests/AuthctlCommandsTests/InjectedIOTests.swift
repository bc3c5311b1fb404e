import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The entry point takes the time, the environment and the terminals from the `AuthctlIO`
/// it is given, never from the process: what a test injects is what the commands see.
@Suite("commands read the clock, the environment and the terminals they are given", .serialized)
final class InjectedIOTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl(clock: InProcessAuthctl.fixedClock())

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        try await authctl.addFakeProvider(provider)
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    @Test("status and users show count the token's lifetime on the injected clock; token refreshes when that clock passes --min-ttl")
    func clock() async throws {
        try await signIn()
        let first = try await authctl.run(["status"])
        #expect(first.stdout.contains("access token valid for 60 min"), "\(first.stdout)")
        authctl.clock.advance(by: 1800)
        #expect(try await authctl.run(["status"]).stdout.contains("access token valid for 30 min"))
        #expect(try await authctl.run(["users", "show"]).stdout.contains("access token valid for 30 min"))
        let cached = try await authctl.run(["token"])
        #expect(cached.status == 0 && provider.count("refresh") == 0)
        authctl.clock.advance(by: 1790)
        #expect(try await authctl.run(["status"]).stdout.contains("access token valid for 10 s"))
        let refreshed = try await authctl.run(["token"])
        #expect(refreshed.status == 0 && refreshed.stdout != cached.stdout, "\(refreshed.stderr)")
        #expect(provider.count("refresh") == 1, "within the default --min-ttl of 60 s on the injected clock")
        authctl.clock.advance(by: 7200)
        #expect(try await authctl.run(["status"]).stdout.contains("access token expired"))
    }

    @Test("the files are found through the given environment (AUTHCTL_KEYSTORE, AUTHCTL_CONFIG, XDG_*), not the process's")
    func environment() async throws {
        let elsewhere = authctl.home + "/elsewhere"
        let environment = ["AUTHCTL_KEYSTORE": elsewhere + "/keystore.json", "AUTHCTL_CONFIG": elsewhere + "/config.json"]
        let added = try await authctl.run(
            ["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID], environment: environment)
        #expect(added.status == 0 && added.stdout.contains(elsewhere + "/config.json"), "\(added.stdout)")
        #expect(try await authctl.run(["login", "oidc.fake", "--timeout", "120"], environment: environment).status == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/keystore.json"))
        #expect(!FileManager.default.fileExists(atPath: authctl.keystorePath))
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
        #expect(try await authctl.run(["status"], environment: environment).status == 0)
        #expect(try await authctl.run(["status"]).status == 16, "without them, the default files under XDG_DATA_HOME")
    }

    @Test("a terminal on stdin is the given stdin's: --id-token - asks for the paste only there")
    func terminals() async throws {
        try await authctl.addFakeProvider(provider)
        let token = provider.idToken(provider.behaviour, nonce: nil, subject: "s-1")
        let piped = try await authctl.run(["login", "oidc.fake", "--id-token", "-"], stdin: Data(token.utf8))
        #expect(piped.status == 0 && !piped.stderr.contains("paste the ID token"), "\(piped.stderr)")
        let typed = try await authctl.run(["login", "oidc.fake", "--id-token", "-"], stdin: Data(token.utf8), terminals: .all)
        #expect(typed.status == 0 && typed.stderr.contains("paste the ID token"), "\(typed.stderr)")
    }
}
