import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("Device-code polling (RFC 8628 §3.5), as a state machine")
struct DeviceTokenPollingTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    func error(_ code: String) -> OAuthErrorResponse { OAuthErrorResponse(error: code) }

    @Test("polls at the interval; authorization_pending keeps the interval; slow_down adds 5 s for good")
    func intervals() {
        var polling = DeviceTokenPolling(interval: 5, issuedAt: start, expiresIn: 900, timeout: 300)
        #expect(polling.start(now: start) == .wait(5))
        #expect(polling.next(after: error("authorization_pending"), now: start.addingTimeInterval(5)) == .wait(5))
        #expect(polling.next(after: error("slow_down"), now: start.addingTimeInterval(10)) == .wait(10))
        #expect(polling.next(after: error("authorization_pending"), now: start.addingTimeInterval(20)) == .wait(10))
        #expect(polling.next(after: error("slow_down"), now: start.addingTimeInterval(30)) == .wait(15))
    }

    @Test("access_denied is invalid-credential; expired_token, the code's lifetime and --timeout are web-context-cancelled")
    func endings() {
        var polling = DeviceTokenPolling(interval: 5, issuedAt: start, expiresIn: 60, timeout: 300)
        #expect(
            {
                if case .fail(let e) = polling.next(after: error("access_denied"), now: start) {
                    e.code == .invalidCredential
                } else {
                    false
                }
            }())
        #expect(
            {
                if case .fail(let e) = polling.next(after: error("expired_token"), now: start) {
                    e.code == .webContextCancelled
                } else {
                    false
                }
            }())
        #expect(
            {
                if case .fail(let e) = polling.next(after: error("invalid_client"), now: start) {
                    e.code == .invalidCredential
                } else {
                    false
                }
            }())
        // The next poll would come after the code expires (60 s).
        #expect(
            {
                if case .fail(let e) = polling.next(after: error("authorization_pending"), now: start.addingTimeInterval(56)) {
                    e.code == .webContextCancelled && e.message.contains("expired")
                } else {
                    false
                }
            }())
        let short = DeviceTokenPolling(interval: 5, issuedAt: start, expiresIn: 900, timeout: 3)
        #expect(
            {
                if case .fail(let e) = short.start(now: start) {
                    e.code == .webContextCancelled && e.message.names(input: .timeout)
                } else {
                    false
                }
            }())
    }
}

@Suite("Headless sign-in: device code and --manual, against the in-process providers", .serialized)
struct HeadlessFlowTests {
    let provider: FakeIdentityProvider

    init() throws { provider = try FakeIdentityProvider() }

    func signIn(_ test: TestEnvironment, mode: FlowOptions.Mode, timeout: TimeInterval = 300, id: String = "oidc.fake") async throws
        -> SignIn.Output
    {
        try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: id), source: .interactive(FlowOptions(timeout: timeout, mode: mode))))
    }

    func expectFailure(_ code: AuthError.Code, _ test: TestEnvironment, mode: FlowOptions.Mode, timeout: TimeInterval = 300) async {
        await #expect { _ = try await signIn(test, mode: mode, timeout: timeout) } throws: { ($0 as? AuthError)?.code == code }
        #expect(test.keystore.writes == 0)
    }

    @Test("device code: the code and URL are shown, pending and slow_down are honoured, the approval signs in")
    func deviceCode() async throws {
        provider.behaviour.devicePolls = ["authorization_pending", "slow_down", "authorization_pending", "approve"]
        let clock = FixedClock(Date())
        let test = try await TestEnvironment(provider: provider, clock: clock)
        let output = try await signIn(test, mode: .deviceCode)
        #expect(output.isNewUser && output.user.providerData[0].tokens?.refreshToken != nil)
        #expect(clock.sleeps == [5, 5, 10, 10], "interval 5, then 10 after slow_down")
        #expect(provider.count("device-poll") == 4 && provider.count("authorize") == 0)
        let shown = test.terminal.lines.joined(separator: "\n")
        #expect(shown.contains("WDJB-MJHT") && shown.contains("/activate?user_code=WDJB-MJHT"))
        for secret in provider.issuedSecrets where secret.hasPrefix("dc-") {
            #expect(!shown.contains(secret), "the device code is never shown")
        }
    }

    @Test("device code: denied, expired, timed out, and a provider without the endpoint")
    func deviceCodeEndings() async throws {
        let clock = FixedClock(Date())
        let test = try await TestEnvironment(provider: provider, clock: clock)
        provider.behaviour.devicePolls = ["authorization_pending", "access_denied"]
        await expectFailure(.invalidCredential, test, mode: .deviceCode)
        provider.behaviour.devicePolls = ["expired_token"]
        await expectFailure(.webContextCancelled, test, mode: .deviceCode)
        provider.behaviour.devicePolls = Array(repeating: "authorization_pending", count: 100)
        await expectFailure(.webContextCancelled, test, mode: .deviceCode, timeout: 30)
        provider.behaviour.deviceInterval = nil  // RFC 8628: 5 s when absent
        provider.behaviour.deviceExpiresIn = 12
        await expectFailure(.webContextCancelled, test, mode: .deviceCode)
        #expect(clock.sleeps.suffix(2) == [5, 5])
        provider.behaviour.deviceAuthorizationSupported = false
        await #expect { _ = try await signIn(test, mode: .deviceCode) } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured && ($0 as? AuthError)?.message.contains("device") == true
        }
    }

    @Test("device code is cancelled cleanly (Ctrl-C cancels the task)")
    func deviceCodeCancelled() async throws {
        provider.behaviour.devicePolls = Array(repeating: "authorization_pending", count: 100)
        let clock = ManualClock()  // stands still: the first poll's wait of 5 s never ends by itself
        let test = try await TestEnvironment(provider: provider, clock: clock)
        let task = Task { try await signIn(test, mode: .deviceCode) }
        await clock.untilWaiting()
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(test.keystore.writes == 0)
    }

    /// A person who opens the printed URL in a browser elsewhere and pastes where it ended.
    static func pasteRedirect(_ lines: [String]) async -> String? {
        // The `openURL` event, described among the lines: its URL up to the next ", ".
        guard let line = lines.first(where: { $0.contains("/authorize?") || $0.contains("/auth/authorize?") }),
            let range = line.range(of: #"https?://[^ ,)]+"#, options: .regularExpression),
            let url = URL(string: String(line[range]))
        else { return nil }
        guard let response = try? await InMemoryNetwork().send(HTTPRequest(url: url)) else { return nil }
        if let location = response.header("Location") { return location }
        // A form_post page: what it would post.
        return AutoPostForm(html: String(decoding: response.body, as: UTF8.self)).map { FormURLEncoding.encode($0.fields) }
    }

    @Test("--manual: the pasted redirect URL finishes the sign-in, with no listener")
    func manual() async throws {
        let terminal = RecordingTerminal(respond: Self.pasteRedirect)
        let test = try await TestEnvironment(provider: provider, browser: FollowingBrowser(), terminal: terminal)
        let output = try await signIn(test, mode: .manual)
        #expect(output.isNewUser)
        #expect(terminal.lines.contains { $0.contains("paste the address the browser ended on") })
    }

    @Test("--manual refuses a pasted response of another sign-in (a usage error: what was expected is said), and end of input")
    func manualRefusals() async throws {
        let forged = RecordingTerminal { lines in
            await Self.pasteRedirect(lines).map { $0.replacingOccurrences(of: "state=", with: "state=forged") }
        }
        await expectFailure(.invalidArgument, try await TestEnvironment(provider: provider, terminal: forged), mode: .manual)
        await expectFailure(
            .webContextCancelled, try await TestEnvironment(provider: provider, terminal: RecordingTerminal()), mode: .manual)
        let denied = RecordingTerminal { _ in "http://127.0.0.1:1/callback?error=access_denied&state=x" }
        await expectFailure(.invalidArgument, try await TestEnvironment(provider: provider, terminal: denied), mode: .manual)
    }

    @Test("--manual with Apple: the pasted form body (code, state, user) finishes the sign-in")
    func manualApple() async throws {
        let apple = try FakeApple()
        let terminal = RecordingTerminal(respond: Self.pasteRedirect)
        let test = try await TestEnvironment(apple: apple, redirectURI: "https://forwarder.example/authctl/callback", terminal: terminal)
        let output = try await signIn(test, mode: .manual, id: "apple")
        #expect(output.isNewUser && output.user.displayName == "Ada Lovelace")
    }
}

/// A clock that moves at once and lets the test act while authctl waits between polls
/// (what the person does on the other device).
final class ActingClock: Clock, @unchecked Sendable {
    let base = FixedClock(Date())
    var action: @Sendable () -> Void = {}

    func now() -> Date { base.now() }
    func sleep(for seconds: TimeInterval) async throws {
        action()
        try await base.sleep(for: seconds)
    }
}

@Suite("Device code with Microsoft (its devicecode endpoint, from its discovery document)", .serialized)
struct MicrosoftDeviceCodeTests {
    @Test("login microsoft --device-code: the code shown is approved at microsoft.com/devicelogin, then the sign-in completes")
    func microsoftDeviceCode() async throws {
        let microsoft = try FakeMicrosoft()
        let clock = ActingClock()
        let test = try await TestEnvironment(microsoft: microsoft, tenant: "organizations", clock: clock)
        let terminal = test.terminal
        clock.action = {
            for line in terminal.lines {
                if let range = line.range(of: #"userCode: "[A-Z0-9]+"#, options: .regularExpression) {
                    microsoft.approveDeviceCode(String(line[range].dropFirst("userCode: \"".count)))
                }
            }
        }
        let output = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "microsoft"), source: .interactive(FlowOptions(mode: .deviceCode))))
        #expect(output.isNewUser && microsoft.count("devicecode") == 1 && microsoft.count("authorize") == 0)
        #expect(terminal.lines.contains { $0.contains("https://microsoft.com/devicelogin") })
        #expect(output.user.providerData[0].issuer.hasSuffix("/v2.0") && !output.user.providerData[0].issuer.contains("{tenantid}"))
    }
}
