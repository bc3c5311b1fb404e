import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The page the browser ends on tells how the sign-in ended (issue 15, item 4): it is sent
/// once the code exchange and the ID-token checks are done, not when the redirect arrives.
/// In-process, with a browser that keeps the last page it got from authctl's listener.
@Suite("the browser's last page tells the outcome", .serialized)
final class BrowserPageTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Signs in with a browser that keeps the page it ends on; returns authctl's result and that page.
    func login() async throws -> (InProcessAuthctl.Result, String) {
        let browser = PageKeepingBrowser()
        var authctl = self.authctl
        authctl.browser = browser
        let result = try await authctl.run(["login", "oidc.fake", "--timeout", "15"])
        // The browser has its answer before authctl's run ends; wait until it has read it all.
        return (result, await browser.page())
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

    /// Signs in to `arguments` with a browser that keeps its last page.
    func signIn(_ arguments: [String]) async throws -> (InProcessAuthctl.Result, String) {
        let browser = PageKeepingBrowser()
        var authctl = self.authctl
        authctl.browser = browser
        let result = try await authctl.run(arguments + ["--timeout", "15"])
        return (result, await browser.page())
    }

    @Test("a sign-in that the account rules then refuse (account-exists, credential-already-in-use) never ends on 'Signed in'")
    func refusedByTheAccountRules() async throws {
        let other = try FakeIdentityProvider()
        other.behaviour.subject = "other-1"
        #expect(
            try await authctl.run(["providers", "add", "oidc.other", "--issuer", other.issuer, "--client-id", other.clientID]).status == 0)
        let (first, firstPage) = try await signIn(["login", "oidc.fake"])
        #expect(first.status == 0 && firstPage.contains("<h1>Signed in</h1>"), "\(first.stderr)")
        // oidc.other's verified email is the user's: the conflict of docs/accounts.md, exit 10.
        let (conflict, conflictPage) = try await signIn(["login", "oidc.other"])
        #expect(conflict.status == 10, "\(conflict.stderr)")
        #expect(!conflictPage.contains("Signed in") && !conflictPage.contains("signed in"), "\(conflictPage)")
        #expect(conflictPage.contains("<h1>Sign-in not finished</h1>"), "\(conflictPage)")
        #expect(conflictPage.contains("already exists"), "the page gives authctl's reason: \(conflictPage)")
        // The identity is another user's: link refuses it (credential-already-in-use, exit 11).
        other.behaviour.email = "grace@example.com"
        #expect(try await authctl.run(["signout"]).status == 0)
        #expect(try await signIn(["login", "oidc.other"]).0.status == 0)
        #expect(try await signIn(["login", "oidc.fake"]).0.status == 0)
        let (inUse, inUsePage) = try await signIn(["link", "oidc.other"])
        #expect(inUse.status == 11, "\(inUse.stderr)")
        #expect(!inUsePage.contains("Signed in"), "\(inUsePage)")
        let (reauth, reauthPage) = try await signIn(["reauth", "oidc.fake"])
        #expect(reauth.status == 0 && reauthPage.contains("<h1>Signed in</h1>"), "\(reauth.stderr) \(reauthPage)")
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

/// A browser that follows the start URL and the provider's 302 into authctl's listener, as
/// `FollowingBrowser` does, and keeps the page the listener answers with.
final class PageKeepingBrowser: BrowserLauncher, @unchecked Sendable {
    private let lock = NSLock()
    private var done: Task<String, Never>?

    func open(_ url: URL) async -> Bool {
        let task = Task.detached { () -> String in
            let transport = CurlTransport(timeout: 15, environment: [:])
            var next = url
            // The start URL, then the provider's authorization URL: each answers with a 302.
            for _ in 0..<3 {
                guard let response = try? await transport.send(HTTPRequest(url: next)) else { return "" }
                guard response.status == 302, let location = response.header("Location").flatMap(URL.init(string:)) else {
                    return String(decoding: response.body, as: UTF8.self)
                }
                next = location
            }
            return ""
        }
        lock.withLock { done = task }
        return true
    }

    /// The last page (empty when there was none).
    func page() async -> String {
        guard let task = lock.withLock({ done }) else { return "" }
        return await task.value
    }
}
