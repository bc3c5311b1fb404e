import AuthCore
import AuthCoreTestSupport
import AuthctlCommands
import Foundation
import Testing

/// The sign-in's way in is on stderr even when a browser was launched (issue 25, item 2): a
/// browser command that starts and then shows nothing (w3m through `$BROWSER` without a
/// terminal) must not leave the person waiting for the timeout with nothing to open. What is
/// printed is the one-time start URL, never the authorization URL (docs/security.md).
@Suite("the sign-in URL is printed even when a browser was launched", .serialized)
final class SignInURLTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl(browser: SilentBrowser())

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test(
        "a browser that starts and shows nothing: the start URL is on stderr before the wait, and opening it by hand signs in",
        arguments: [false, true])
    func silentBrowser(quiet: Bool) async throws {
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let io = authctl.io(stdin: ScriptedInput(Data(), isTerminal: false), stdout: stdout, stderr: stderr, environment: [:])
        let arguments = ["login", "oidc.fake", "--timeout", "60"] + (quiet ? ["--quiet"] : [])
        let running = Task { await AuthctlInvocation.run(arguments, io: io) }
        let line = try await stderr.waitForLine(containing: "/start/") { $0.hasPrefix("http://") }
        let start = try #require(line.flatMap(URL.init(string:)), "no start URL on stderr: \(stderr.text)")
        #expect(start.host == "127.0.0.1" && start.path.hasPrefix("/start/") && start.query == nil, "\(start)")
        // The person opens it by hand; their browser follows it to the provider and back.
        _ = FollowingBrowser().open(start)
        let status = await running.value
        #expect(status == 0, "\(stderr.text)")
        let text = stderr.text
        if !quiet, let url = text.range(of: "/start/"), let waiting = text.range(of: "Waiting for the sign-in") {
            #expect(url.lowerBound < waiting.lowerBound, "the URL comes before the wait: \(text)")
        }
        // The authorization URL (state, nonce, PKCE challenge) is not shown: a browser started.
        #expect(!text.contains("state=") && !text.contains("code_challenge") && !text.contains(provider.issuer + "/authorize"), "\(text)")
    }
}

/// A browser command that starts and then shows nothing (w3m through `$BROWSER` with no
/// terminal): authctl is told it opened, and nothing ever fetches the URL.
struct SilentBrowser: BrowserLauncher {
    func open(_ url: URL) async -> Bool { true }
}
