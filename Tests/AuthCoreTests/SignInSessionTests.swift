import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The sign-in session on its own: no socket, no transport, no clock; each input is what a
/// driver would have learnt, each action what it must do next.
@Suite("The sign-in session, without I/O")
struct SignInSessionTests {
    let provider: any IdentityProvider
    let discovery = DiscoveryDocument(
        issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!,
        deviceAuthorizationEndpoint: URL(string: "https://idp.example/device")!)
    let attempt = AuthorizationAttempt.generate(using: SeededRandom())
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        provider = try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example"))
    }

    func session(_ options: FlowOptions) throws -> SignInSession {
        try SignInSession(provider: provider, options: options, attempt: attempt, startPath: "/start/abc")
    }

    @Test("the browser flow: discovery, a listener, the start URL opened, the redirect, the exchange, the credential")
    func browserFlow() throws {
        var session = try session(FlowOptions(timeout: 60))
        guard case .authenticateClient = session.start() else { Issue.record("client authentication first"); return }
        guard case .fetchDiscovery = session.next(.clientAuthentication(.none), now: now) else { Issue.record("discovery"); return }
        guard case .openReceiver(false, let address, _) = session.next(.discovery(discovery), now: now) else {
            Issue.record("a listener")
            return
        }
        #expect(address == ListenAddress(host: "127.0.0.1", port: 0))
        guard case .listen(let machine, let redirectURI, let until) = session.next(
            .receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        else {
            Issue.record("listen")
            return
        }
        #expect(redirectURI.absoluteString == "http://127.0.0.1:8400/callback" && until == now.addingTimeInterval(60))
        #expect(machine.expectation.state == attempt.state && machine.expectation.start?.path == "/start/abc")
        guard case .openBrowser(let start) = session.next(.done, now: now) else { Issue.record("open the browser"); return }
        #expect(start.absoluteString == "http://127.0.0.1:8400/start/abc", "the one-time start URL, never the authorization URL")
        guard case .report(.openURL(let shown, _)) = session.next(.browserOpened(false), now: now) else {
            Issue.record("no browser: the URL is shown")
            return
        }
        #expect(shown.absoluteString.hasPrefix("https://idp.example/authorize?"))
        guard case .report(.waitingForRedirect("127.0.0.1", 8400, _, 60)) = session.next(.done, now: now) else {
            Issue.record("waiting")
            return
        }
        guard case .awaitRedirect = session.next(.done, now: now) else { Issue.record("await the redirect"); return }
        guard case .authenticateClient = session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now) else {
            Issue.record("client authentication for the exchange")
            return
        }
        guard case .exchange(let request) = session.next(.clientAuthentication(.none), now: now) else { Issue.record("exchange"); return }
        #expect(request.grant == .authorizationCode(code: "c", redirectURI: redirectURI, codeVerifier: attempt.pkce.codeVerifier))
    }

    @Test("a refusal after the redirect finishes with the failure page for the waiting browser")
    func deniedAnswersTheBrowser() throws {
        var session = try session(FlowOptions(timeout: 60))
        _ = session.start()
        _ = session.next(.clientAuthentication(.none), now: now)
        _ = session.next(.discovery(discovery), now: now)
        _ = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.browserOpened(true), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.done, now: now)
        let action = session.next(.redirect(.denied(OAuthErrorResponse(error: "access_denied"))), now: now)
        guard case .finish(.failure(let error), let page?) = action else { Issue.record("finish with a page"); return }
        #expect(error.code == .invalidCredential && page.body.contains("Sign-in failed"))
    }

    @Test("--manual: no start URL, the authorization URL is shown, nothing is opened")
    func manual() throws {
        var session = try session(FlowOptions(mode: .manual))
        _ = session.start()
        _ = session.next(.clientAuthentication(.none), now: now)
        guard case .openReceiver(true, _, _) = session.next(.discovery(discovery), now: now) else { Issue.record("pasted"); return }
        guard case .report(.openURL) = session.next(.receiverOpened(host: "127.0.0.1", port: 50000, servesStartURL: false), now: now)
        else {
            Issue.record("the URL is shown")
            return
        }
        guard case .listen(let machine, _, _) = session.next(.done, now: now) else { Issue.record("listen"); return }
        #expect(machine.expectation.start == nil)
        guard case .awaitRedirect = session.next(.done, now: now) else { Issue.record("no browser is opened"); return }
    }

    @Test("the device flow: the code is reported with its expiry as a value, and each poll waits until an instant")
    func deviceFlow() throws {
        var session = try session(FlowOptions(timeout: 300, mode: .deviceCode))
        _ = session.start()
        _ = session.next(.clientAuthentication(.none), now: now)
        guard case .requestDeviceAuthorization = session.next(.discovery(discovery), now: now) else { Issue.record("device"); return }
        let body = #"{"device_code":"dc","user_code":"WDJB-MJHT","verification_uri":"https://idp.example/activate","#
            + #""expires_in":900,"interval":5}"#
        let authorized = HTTPResponse(status: 200, body: Data(body.utf8))
        guard case .report(.deviceCode(_, _, nil, "WDJB-MJHT")) = session.next(.response(authorized), now: now) else {
            Issue.record("the code")
            return
        }
        guard case .report(.waitingForApproval(let until, 300)) = session.next(.done, now: now) else { Issue.record("until"); return }
        #expect(until == now.addingTimeInterval(300))
        guard case .wait(let first) = session.next(.done, now: now) else { Issue.record("wait"); return }
        #expect(first == now.addingTimeInterval(5))
    }
}

@Suite("--manual's receiver binds nothing")
struct PastedRedirectReceiverTests {
    @Test("the redirect URI's port: the one asked for, else one drawn from the dynamic range; nothing listens on it")
    func port() {
        let asked = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 8400), random: SeededRandom()) { nil }
        #expect(asked.port == 8400 && !asked.servesStartURL)
        for seed in UInt8(0)..<20 {
            let drawn = PastedRedirectReceiver(address: ListenAddress(host: "::1", port: 0), random: SeededRandom(seed: seed)) { nil }
            #expect((49152...65535).contains(drawn.port) && drawn.host == "::1")
        }
    }

    @Test("end of input is web-context-cancelled; a pasted redirect of this sign-in is its outcome")
    func pasted() async throws {
        let machine = CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example"))
        let redirectURI = URL(string: "http://127.0.0.1:50000/callback")!
        let none = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 0), random: SeededRandom()) { nil }
        none.start(machine, redirectURI: redirectURI, until: .distantFuture, events: DiscardedSignInEvents())
        await #expect { _ = try await none.redirect() } throws: { ($0 as? AuthError)?.code == .webContextCancelled }
        let pasted = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 0), random: SeededRandom()) {
            "http://127.0.0.1:50000/callback?code=c&state=s"
        }
        pasted.start(machine, redirectURI: redirectURI, until: .distantFuture, events: DiscardedSignInEvents())
        let received = try await pasted.redirect()
        #expect(received.outcome == .authorized(AuthorizationResponse(code: "c")) && received.browser == nil)
    }
}
