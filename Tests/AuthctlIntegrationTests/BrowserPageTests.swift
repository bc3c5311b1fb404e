import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The page the browser ends on tells how the sign-in ended (issue 15, item 4): it is sent
/// once the code exchange and the ID-token checks are done, not when the redirect arrives.
@Suite("the browser's last page tells the outcome", .serialized)
final class BrowserPageTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Signs in with a browser that keeps the page it ends on; returns authctl's result and that page.
    func login() async throws -> (AuthctlProcess.Result, String) {
        let page = authctl.home + "/page-\(UUID().uuidString).html"
        let script = authctl.home + "/browser-\(UUID().uuidString).sh"
        try Data(
            """
            #!/bin/sh
            curl --silent --location --max-time 15 --output '\(page).part' "$1"
            mv '\(page).part' '\(page)'
            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        let result = try await authctl.run(["login", "oidc.fake", "--browser-command", script, "--timeout", "15"])
        // The browser has its answer before authctl exits; give curl a moment to save it.
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: page) { try await Task.sleep(nanoseconds: 50_000_000) }
        return (result, (try? String(contentsOfFile: page, encoding: .utf8)) ?? "")
    }

    @Test("a sign-in that succeeds ends on a page that says so")
    func success() async throws {
        let (result, page) = try await login()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(page.contains("<h1>Signed in</h1>") && page.contains("oidc.fake"), "\(page)")
    }

    @Test(
        "a sign-in whose code exchange or ID token then fails ends on a page that says it failed and why, not 'Signed in'",
        arguments: ["token endpoint 500", "wrong audience", "expired"])
    func failureAfterTheRedirect(_ name: String) async throws {
        provider.update { behaviour in
            switch name {
            case "token endpoint 500": behaviour.tokenEndpointOverride = HTTPResponse(status: 500, body: Data("<html>down</html>".utf8))
            case "wrong audience": behaviour.idTokenAudience = .string("another-client")
            default: behaviour.idTokenExpiresIn = -3600
            }
        }
        let (result, page) = try await login()
        #expect(result.status != 0)
        #expect(page.contains("<h1>Sign-in failed</h1>"), "\(name): \(page)")
        #expect(!page.contains("Signed in"), "\(name)")
        // The page gives authctl's own reason: the same words as the terminal's error line.
        let reason = result.stderr.split(separator: "\n").last { $0.hasPrefix("authctl: ") }.map { String($0.dropFirst(9)) } ?? "?"
        #expect(page.contains(String(reason.prefix(30))), "\(name): \(page) vs \(reason)")
    }

    @Test("a provider's error description is escaped in the page, never markup")
    func escaped() async throws {
        provider.update {
            $0.authorizeError = "access_denied"
            $0.authorizeErrorDescription = "<script>alert(1)</script>"
        }
        let (result, page) = try await login()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(page.contains("<h1>Sign-in failed</h1>"), "\(page)")
        #expect(!page.contains("<script>"), "\(page)")
        #expect(page.contains("access_denied"))
    }
}
