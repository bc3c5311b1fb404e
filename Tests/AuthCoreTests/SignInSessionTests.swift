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

    /// The redirect of a listener on port 8400.
    var redirectURI: URL { URL(string: "http://127.0.0.1:8400/callback")! }
    /// The nonce the ID token must carry (a generic provider: the raw one).
    var nonce: String { attempt.nonce }

    /// The state machine a listener on port 8400 judges the redirect with.
    func machine(start: Bool) throws -> CallbackStateMachine {
        let request = AuthorizationRequest(
            authorizationEndpoint: discovery.authorizationEndpoint, issuer: "https://idp.example", clientID: "client",
            redirectURI: redirectURI, scopes: ["openid", "profile", "email"], state: attempt.state, nonce: nonce, pkce: attempt.pkce)
        return CallbackStateMachine(
            expectation: .init(
                path: "/callback", state: attempt.state, issuer: "https://idp.example",
                start: start ? .init(path: "/start/abc", authorizationURL: try request.url()) : nil))
    }

    /// A session of the browser flow taken to its redirect.
    func awaitingRedirect() throws -> SignInSession {
        var session = try session(FlowOptions(timeout: 60))
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(discovery), now: now)
        _ = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.browserOpened(true), now: now)
        _ = session.next(.done, now: now)
        #expect(session.next(.done, now: now) == .awaitRedirect)
        return session
    }

    @Test("the browser flow: discovery, a listener, the start URL opened, the redirect, the exchange, the credential")
    func browserFlow() throws {
        var session = try session(FlowOptions(timeout: 60))
        #expect(session.start() == .checkClientAuthentication)
        #expect(session.next(.done, now: now) == .fetchDiscovery)
        #expect(
            session.next(.discovery(discovery), now: now)
                == .openReceiver(pasted: false, address: ListenAddress(host: "127.0.0.1", port: 0), access: .currentUser))
        #expect(
            session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
                == .listen(try machine(start: true), redirectURI: redirectURI, until: now.addingTimeInterval(60)))
        #expect(
            session.next(.done, now: now) == .openBrowser(URL(string: "http://127.0.0.1:8400/start/abc")!),
            "the one-time start URL, never the authorization URL")
        let authorizationURL = try #require(try machine(start: true).expectation.start?.authorizationURL)
        #expect(session.next(.browserOpened(false), now: now) == .report(.openURL(authorizationURL, provider: provider.id)))
        #expect(
            session.next(.done, now: now)
                == .report(.waitingForRedirect(host: "127.0.0.1", port: 8400, until: now.addingTimeInterval(60), timeout: 60)))
        #expect(session.next(.done, now: now) == .awaitRedirect)
        #expect(
            session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
                == .exchange(
                    .authorizationCode(code: "c", redirectURI: redirectURI, codeVerifier: attempt.pkce.codeVerifier), discovery: discovery,
                    idToken: .init(nonce: nonce), proof: .none, resources: []))
        let tokens = TokenClient.Issued(response: TokenResponse(accessToken: "at", idToken: "it"))
        #expect(
            session.next(.tokens(tokens), now: now)
                == .makeCredential(
                    .init(
                        source: .tokens(tokens, askedScopes: ["openid", "profile", "email"]), discovery: discovery, clientID: "client",
                        nonce: nonce,
                        callbackFields: [:])))
    }

    @Test(
        "DPoP and a pushed request: dpop_jkt and authorization_details pushed, the browser gets client_id and request_uri only, the exchange proves the key"
    )
    func pushedAndBound() throws {
        var document = discovery
        document.dpopSigningAlgValuesSupported = ["ES256"]
        document.pushedAuthorizationRequestEndpoint = URL(string: "https://idp.example/par")!
        var options = FlowOptions(timeout: 60)
        options.authorizationDetails = try AuthorizationDetails.parse(#"[{"type":"payment_initiation"}]"#, source: "test")
        var session = try session(options)
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(document), now: now)
        let pushed = session.next(.receiverOpened(host: "127.0.0.1", port: 8400, servesStartURL: true), now: now)
        guard case .pushAuthorization(let request, let endpoint, _) = pushed else {
            Issue.record("the request is pushed first: \(pushed)")
            return
        }
        let parameters = Dictionary(request.parameters, uniquingKeysWith: { a, _ in a })
        #expect(endpoint.path == "/par" && parameters["dpop_jkt"] == attempt.proofKey.thumbprint)
        #expect(parameters["authorization_details"] == #"[{"type":"payment_initiation"}]"# && parameters["code_challenge"] != nil)
        let listen = session.next(.pushed(TokenClient.Pushed(requestURI: "urn:ietf:params:oauth:request_uri:xyz", expiresIn: 60)), now: now)
        guard case .listen(let machine, _, _) = listen else {
            Issue.record("then the listener")
            return
        }
        let url = try #require(machine.expectation.start?.authorizationURL)
        let expected = "https://idp.example/authorize?client_id=client&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Axyz"
        #expect(url.absoluteString == expected)
        _ = session.next(.done, now: now)
        _ = session.next(.browserOpened(true), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.done, now: now)
        // A browser command that had the start URL served and showed nothing: the new request
        // is pushed again (its state, its request_uri), proved by the same key.
        let fresh = AuthorizationAttempt.generate(using: SeededRandom(seed: 9))
        let repushed = session.next(.browserEnded(startServed: true, fresh: fresh, freshStartPath: "/start/fresh"), now: now)
        guard case .pushAuthorization(let again, _, _) = repushed else {
            Issue.record("the renewed request is pushed: \(repushed)")
            return
        }
        let pushedAgain = Dictionary(again.parameters, uniquingKeysWith: { a, _ in a })
        #expect(pushedAgain["state"] == fresh.state && pushedAgain["dpop_jkt"] == attempt.proofKey.thumbprint)
        let renewed = session.next(
            .pushed(TokenClient.Pushed(requestURI: "urn:ietf:params:oauth:request_uri:abc", expiresIn: 60)), now: now)
        guard case .renewStart(let renewal) = renewed else {
            Issue.record("then the receiver judges by it: \(renewed)")
            return
        }
        #expect(renewal.state == fresh.state && renewal.start?.authorizationURL.absoluteString.hasSuffix("request_uri%3Aabc") == true)
        _ = session.next(.startRenewed(true), now: now)
        _ = session.next(.done, now: now)
        guard case .exchange(_, _, _, let proof, _) = session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
        else {
            Issue.record("the exchange")
            return
        }
        #expect(proof == .offered(attempt.proofKey))
    }

    @Test("a refusal after the redirect finishes with the failure page for the waiting browser")
    func deniedAnswersTheBrowser() throws {
        var session = try awaitingRedirect()
        let action = session.next(.redirect(.denied(OAuthErrorResponse(error: "access_denied"))), now: now)
        guard case .finish(.failure(let error), let page?) = action else { Issue.record("finish with a page"); return }
        #expect(error.code == .invalidCredential && error.oauthError == .accessDenied && page.body.contains("Sign-in failed"))
    }

    @Test("a failed exchange finishes the sign-in with the token endpoint's error, the browser told")
    func failedExchange() throws {
        var session = try awaitingRedirect()
        _ = session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
        let refused = AuthError.invalidCredential("refused", oauthError: .invalidGrant)
        #expect(
            session.next(.failed(refused), now: now)
                == .finish(.failure(refused), page: .page(status: 200, SignInPage.failed(because: "refused"))))
    }

    @Test("--manual: no start URL, the authorization URL is shown, nothing is opened")
    func manual() throws {
        var session = try session(FlowOptions(mode: .manual))
        _ = session.start()
        _ = session.next(.done, now: now)
        guard case .openReceiver(true, _, _) = session.next(.discovery(discovery), now: now) else { Issue.record("pasted"); return }
        guard case .report(.openURL) = session.next(.receiverOpened(host: "127.0.0.1", port: 50000, servesStartURL: false), now: now)
        else {
            Issue.record("the URL is shown")
            return
        }
        guard case .listen(let machine, _, _) = session.next(.done, now: now) else { Issue.record("listen"); return }
        #expect(machine.expectation.start == nil)
        #expect(session.next(.done, now: now) == .awaitRedirect, "no browser is opened")
    }

    @Test("the device flow: the code is reported with its expiry as a value, each poll waits until an instant, pending polls again")
    func deviceFlow() throws {
        var session = try session(FlowOptions(timeout: 300, mode: .deviceCode))
        _ = session.start()
        _ = session.next(.done, now: now)
        #expect(
            session.next(.discovery(discovery), now: now)
                == .requestDeviceAuthorization(scopes: ["openid", "profile", "email"], discovery: discovery, proofKey: nil))
        let authorization = DeviceAuthorizationResponse(
            deviceCode: "dc", userCode: "WDJB-MJHT", verificationURI: URL(string: "https://idp.example/activate")!, expiresIn: 900,
            interval: 5)
        #expect(
            session.next(.deviceAuthorization(authorization), now: now)
                == .report(
                    .deviceCode(
                        provider: provider.id, verificationURI: authorization.verificationURI, verificationURIComplete: nil,
                        userCode: "WDJB-MJHT")))
        #expect(session.next(.done, now: now) == .report(.waitingForApproval(until: now.addingTimeInterval(300), seconds: 300)))
        #expect(session.next(.done, now: now) == .wait(until: now.addingTimeInterval(5)))
        #expect(session.next(.done, now: now) == .poll(.deviceCode("dc"), discovery: discovery, proof: .none))
        let later = now.addingTimeInterval(5)
        #expect(
            session.next(.polled(.refused(OAuthErrorResponse(error: "slow_down"))), now: later)
                == .wait(until: later.addingTimeInterval(10)),
            "slow_down: five seconds more")
        #expect(session.next(.done, now: later) == .poll(.deviceCode("dc"), discovery: discovery, proof: .none))
        let tokens = TokenClient.Issued(response: TokenResponse(accessToken: "at", idToken: "it"))
        #expect(
            session.next(.polled(.issued(tokens)), now: later)
                == .makeCredential(
                    .init(
                        source: .tokens(tokens, askedScopes: ["openid", "profile", "email"]), discovery: discovery, clientID: "client",
                        nonce: nil,
                        callbackFields: [:])))
    }

    @Test(
        "a browser command that exits after its start URL was served: a new request (new state) behind a new start URL, reported, and the wait goes on; one that exits before anything was served changes nothing; once only"
    )
    func browserEndedAfterStart() throws {
        let fresh = AuthorizationAttempt.generate(using: SeededRandom(seed: 7))
        var handedOff = try awaitingRedirect()
        #expect(
            handedOff.next(.browserEnded(startServed: false, fresh: fresh, freshStartPath: "/start/fresh"), now: now) == .awaitRedirect,
            "a launcher that handed the URL on: nothing was fetched, nothing is renewed")
        var session = try awaitingRedirect()
        guard
            case .renewStart(let renewal) = session.next(
                .browserEnded(startServed: true, fresh: fresh, freshStartPath: "/start/fresh"), now: now)
        else {
            Issue.record("the start URL is renewed")
            return
        }
        #expect(renewal.state == fresh.state && renewal.start?.path == "/start/fresh" && renewal.path == "/callback")
        let renewedURL = try #require(renewal.start?.authorizationURL.absoluteString)
        #expect(renewedURL.contains("state=\(fresh.state)") && !renewedURL.contains(attempt.state), "a new authorization request")
        #expect(
            session.next(.startRenewed(true), now: now)
                == .report(.browserEndedWithoutSignIn(provider: provider.id, startURL: URL(string: "http://127.0.0.1:8400/start/fresh")!)))
        #expect(session.next(.done, now: now) == .awaitRedirect)
        #expect(
            session.next(.browserEnded(startServed: true, fresh: fresh, freshStartPath: "/start/again"), now: now) == .awaitRedirect,
            "renewed once at most")
        #expect(
            session.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
                == .exchange(
                    .authorizationCode(code: "c", redirectURI: redirectURI, codeVerifier: fresh.pkce.codeVerifier), discovery: discovery,
                    idToken: .init(nonce: fresh.nonce), proof: .none, resources: []),
            "the new request's verifier and nonce")
        var late = try awaitingRedirect()
        _ = late.next(.browserEnded(startServed: true, fresh: fresh, freshStartPath: "/start/fresh"), now: now)
        #expect(late.next(.startRenewed(false), now: now) == .awaitRedirect, "the redirect came first: nothing is reported")
        #expect(
            late.next(.redirect(.authorized(AuthorizationResponse(code: "c"))), now: now)
                == .exchange(
                    .authorizationCode(code: "c", redirectURI: redirectURI, codeVerifier: attempt.pkce.codeVerifier), discovery: discovery,
                    idToken: .init(nonce: nonce), proof: .none, resources: []),
            "exchanged by the request as it was")
        var reused = try awaitingRedirect()
        _ = reused.next(.browserEnded(startServed: true, fresh: fresh, freshStartPath: "/start/fresh"), now: now)
        _ = reused.next(.startRenewed(true), now: now)
        _ = reused.next(.done, now: now)
        guard case .finish(.failure(let error), _) = reused.next(.redirect(.startURLReused), now: now) else {
            Issue.record("the spent start URL used again ends the sign-in")
            return
        }
        #expect(error.code == .webContextCancelled && error.message.contains("opened twice"))
    }

    @Test("the device flow: a denied poll finishes the sign-in with the provider's error as a value")
    func deviceDenied() throws {
        var session = try session(FlowOptions(timeout: 300, mode: .deviceCode))
        _ = session.start()
        _ = session.next(.done, now: now)
        _ = session.next(.discovery(discovery), now: now)
        let authorization = DeviceAuthorizationResponse(
            deviceCode: "dc", userCode: "U", verificationURI: URL(string: "https://idp.example/activate")!, expiresIn: 900)
        _ = session.next(.deviceAuthorization(authorization), now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.done, now: now)
        _ = session.next(.done, now: now)
        guard case .finish(.failure(let error), nil) = session.next(.polled(.refused(OAuthErrorResponse(error: "access_denied"))), now: now)
        else {
            Issue.record("finish")
            return
        }
        #expect(error.oauthError == .accessDenied && error.code == .invalidCredential)
    }
}

@Suite("--manual's receiver binds nothing")
struct PastedRedirectReceiverTests {
    @Test("the redirect URI's port: the one asked for, else one drawn from 61000–65535, which Linux lends no outgoing connection")
    func port() {
        let asked = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 8400), random: SeededRandom()) { nil }
        #expect(asked.port == 8400 && !asked.servesStartURL)
        for seed in UInt8(0)..<20 {
            let drawn = PastedRedirectReceiver(address: ListenAddress(host: "::1", port: 0), random: SeededRandom(seed: seed)) { nil }
            // `login --remote`'s laptop listens on this port: one of Linux's 32768–60999 may be held
            // by any outgoing connection there (a CI run failed on one).
            #expect((61000...65535).contains(drawn.port) && drawn.host == "::1", "\(drawn.port)")
        }
    }

    @Test("end of input is web-context-cancelled; a pasted redirect of this sign-in is its outcome")
    func pasted() async throws {
        let machine = CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example"))
        let redirectURI = URL(string: "http://127.0.0.1:50000/callback")!
        let none = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 0), random: SeededRandom()) { nil }
        none.start(machine, redirectURI: redirectURI, until: .distantFuture, events: DiscardedEvents())
        await #expect { _ = try await none.redirect() } throws: { ($0 as? AuthError)?.code == .webContextCancelled }
        let pasted = PastedRedirectReceiver(address: ListenAddress(host: "127.0.0.1", port: 0), random: SeededRandom()) {
            "http://127.0.0.1:50000/callback?code=c&state=s"
        }
        pasted.start(machine, redirectURI: redirectURI, until: .distantFuture, events: DiscardedEvents())
        let received = try await pasted.redirect()
        #expect(received.outcome == .authorized(AuthorizationResponse(code: "c")) && received.browser == nil)
    }
}
