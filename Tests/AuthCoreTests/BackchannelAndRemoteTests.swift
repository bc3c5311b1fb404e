import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// CIBA (poll mode) and the remote bootstrap (docs/remote.md): the session's actions without
/// I/O, then the flows against the in-process provider.
@Suite("CIBA and the remote bootstrap, without I/O")
struct BackchannelSessionTests {
    let provider: any IdentityProvider
    var discovery = DiscoveryDocument(
        issuer: "https://idp.example", authorizationEndpoint: URL(string: "https://idp.example/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example/token")!, jwksURI: URL(string: "https://idp.example/jwks")!)
    let attempt = AuthorizationAttempt.generate(using: SeededRandom())
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        provider = try ProviderRegistry.provider(for: ProviderConfig(id: "oidc.example", clientID: "client", issuer: "https://idp.example"))
        discovery.backchannelAuthenticationEndpoint = URL(string: "https://idp.example/bc-authorize")
        discovery.backchannelTokenDeliveryModesSupported = ["poll", "ping"]
    }

    func session(_ mode: FlowOptions.Mode, timeout: TimeInterval = 300) throws -> SignInSession {
        try SignInSession(provider: provider, options: FlowOptions(timeout: timeout, mode: mode), attempt: attempt, startPath: "/start/abc")
    }

    @Test("CIBA: the request, the binding message shown before any poll, polls at the interval, slow_down +5 s, no nonce expected")
    func backchannelFlow() throws {
        var session = try session(.backchannel(loginHint: #"{"username":"ada"}"#, bindingMessage: "amber-falcon-42"))
        #expect(session.start() == .checkClientAuthentication)
        #expect(session.next(.done, now: now) == .fetchDiscovery)
        #expect(
            session.next(.discovery(discovery), now: now)
                == .requestBackchannelAuthentication(
                    scopes: ["openid", "profile", "email"], loginHint: #"{"username":"ada"}"#, bindingMessage: "amber-falcon-42",
                    discovery: discovery))
        let answer = BackchannelAuthenticationResponse(authReqID: "req-1", expiresIn: 120, interval: 5)
        #expect(
            session.next(.backchannelAuthentication(answer), now: now)
                == .report(.approveOnDevice(provider: provider.id, bindingMessage: "amber-falcon-42")))
        #expect(session.next(.done, now: now) == .report(.waitingForApproval(until: now.addingTimeInterval(120), seconds: 120)))
        #expect(session.next(.done, now: now) == .wait(until: now.addingTimeInterval(5)))
        #expect(session.next(.done, now: now) == .poll(.backchannel(authReqID: "req-1"), discovery: discovery, proof: .none))
        let later = now.addingTimeInterval(5)
        #expect(
            session.next(.polled(.refused(OAuthErrorResponse(error: "slow_down"))), now: later)
                == .wait(until: later.addingTimeInterval(10)))
        #expect(session.next(.done, now: later) == .poll(.backchannel(authReqID: "req-1"), discovery: discovery, proof: .none))
        let tokens = TokenClient.Issued(response: TokenResponse(accessToken: "at", idToken: "it"))
        guard case .makeCredential(let making) = session.next(.polled(.issued(tokens)), now: later) else {
            Issue.record("the credential is made after the approval")
            return
        }
        #expect(making.nonce == nil, "CIBA sends no nonce, so none is checked")
    }

    @Test("CIBA: access_denied is invalid-credential, expired_token web-context-cancelled, both saying it was the device's request")
    func backchannelEndings() throws {
        for (error, code) in [("access_denied", AuthError.Code.invalidCredential), ("expired_token", .webContextCancelled)] {
            var session = try session(.backchannel(loginHint: "ada", bindingMessage: "m"))
            _ = session.start()
            _ = session.next(.done, now: now)
            _ = session.next(.discovery(discovery), now: now)
            _ = session.next(.backchannelAuthentication(.init(authReqID: "r", expiresIn: 60)), now: now)
            _ = session.next(.done, now: now)
            _ = session.next(.done, now: now)
            _ = session.next(.done, now: now)
            guard case .finish(.failure(let failure), nil) = session.next(.polled(.refused(.init(error: error))), now: now) else {
                Issue.record("\(error) ends the sign-in")
                continue
            }
            #expect(failure.code == code && failure.message.contains("device"))
        }
    }

    @Test("CIBA: a provider without the endpoint, or without the poll mode, is provider-not-configured before anything is sent")
    func backchannelNotOffered() throws {
        var none = discovery
        none.backchannelAuthenticationEndpoint = nil
        var pushOnly = discovery
        pushOnly.backchannelTokenDeliveryModesSupported = ["push"]
        for document in [none, pushOnly] {
            var session = try session(.backchannel(loginHint: "ada", bindingMessage: "m"))
            _ = session.start()
            _ = session.next(.done, now: now)
            guard case .finish(.failure(let failure), _) = session.next(.discovery(document), now: now) else {
                Issue.record("refused")
                continue
            }
            #expect(failure.code == .providerNotConfigured)
        }
    }

    @Test("CIBA: an empty or multi-line login hint, a binding message over 256 characters or with control characters: invalid-argument")
    func backchannelArguments() {
        for (hint, message) in [("", "m"), ("a\nb", "m"), ("ada", String(repeating: "x", count: 257)), ("ada", "a\u{1B}[2J"), ("ada", "")] {
            #expect(throws: AuthError.self) {
                _ = try session(.backchannel(loginHint: hint, bindingMessage: message))
            }
        }
        #expect((try? session(.backchannel(loginHint: "ada", bindingMessage: String(repeating: "x", count: 256)))) != nil)
    }

    @Test("a generated binding message is two words and a number, and differs between draws")
    func generatedBindingMessage() throws {
        let random = SeededRandom()
        let drawn = (0..<20).map { _ in BackchannelAuthenticationRequest.generateBindingMessage(using: random) }
        for message in drawn {
            let parts = message.split(separator: "-")
            #expect(parts.count == 3 && Int(parts[2]).map { (10...99).contains($0) } == true, "\(message)")
            try BackchannelAuthenticationRequest.checkBindingMessage(message)
        }
        #expect(Set(drawn).count > 10)
    }

    @Test("the backchannel request: scope, login_hint as given, binding_message, the client's authentication, no requested_expiry")
    func backchannelRequest() {
        let request = BackchannelAuthenticationRequest(
            endpoint: URL(string: "https://idp.example/bc")!, clientID: "c", scopes: ["openid", "email"], loginHint: #"{"username":"ada"}"#,
            bindingMessage: "m 1", authentication: .post(secret: "s")
        ).httpRequest
        let form = Self.form(request)
        #expect(form["scope"] == "openid email" && form["login_hint"] == #"{"username":"ada"}"# && form["binding_message"] == "m 1")
        #expect(form["client_id"] == "c" && form["client_secret"] == "s" && form["requested_expiry"] == nil)
        let poll = TokenRequest(
            tokenEndpoint: URL(string: "https://idp.example/token")!, clientID: "c", grant: .backchannel(authReqID: "r"),
            authentication: .assertion("jwt")
        ).httpRequest
        let polled = Self.form(poll)
        #expect(polled["grant_type"] == "urn:openid:params:grant-type:ciba" && polled["auth_req_id"] == "r")
        #expect(polled["client_id"] == "c", "a private_key_jwt poll names the client (Glewlwyd requires it)")
    }

    static func form(_ request: HTTPRequest) -> [String: String] {
        let pairs = FormURLEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)) ?? []
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    @Test("the backchannel answer: auth_req_id and expires_in required, interval 5 by default, an OAuth error is invalid-credential")
    func backchannelAnswer() throws {
        let ok = try BackchannelAuthenticationResponse.parse(
            HTTPResponse(status: 200, body: Data(#"{"auth_req_id":"r","expires_in":600}"#.utf8)), host: "h")
        #expect(ok == BackchannelAuthenticationResponse(authReqID: "r", expiresIn: 600, interval: 5))
        #expect { _ = try BackchannelAuthenticationResponse.parse(HTTPResponse(status: 200, body: Data("{}".utf8)), host: "h") } throws: {
            ($0 as? AuthError)?.code == .networkRequestFailed
        }
        let refused = HTTPResponse(status: 400, body: Data(#"{"error":"unknown_user_id"}"#.utf8))
        #expect { _ = try BackchannelAuthenticationResponse.parse(refused, host: "h") } throws: {
            ($0 as? AuthError)?.code == .invalidCredential && ($0 as? AuthError)?.message.names(input: .loginHint) == true
        }
    }

    @Test("--remote: the session binds nothing, shows the bootstrap argument (no verifier) instead of the URL, and reads a pasted line")
    func remoteSession() throws {
        var session = try session(.remote)
        _ = session.start()
        _ = session.next(.done, now: now)
        guard case .openReceiver(let pasted, _, _) = session.next(.discovery(discovery), now: now) else {
            Issue.record("a receiver")
            return
        }
        #expect(pasted, "nothing listens on the host")
        guard
            case .report(.remoteBootstrap(let argument, _)) = session.next(
                .receiverOpened(host: "127.0.0.1", port: 50_123, servesStartURL: false), now: now)
        else {
            Issue.record("the bootstrap argument is shown")
            return
        }
        let bootstrap = try RemoteBootstrap(argument: argument)
        #expect(bootstrap.redirectURI.absoluteString == "http://127.0.0.1:50123/callback" && bootstrap.state == attempt.state)
        #expect(
            !argument.contains(attempt.pkce.codeVerifier) && !bootstrap.authorizationURL.absoluteString.contains(attempt.pkce.codeVerifier))
        #expect(bootstrap.authorizationURL.absoluteString.contains("code_challenge="))
    }

    @Test("the bootstrap texts: the argument and the line back round-trip; a cut or foreign one is invalid-argument")
    func bootstrapTexts() throws {
        let bootstrap = RemoteBootstrap(
            providerID: "apple.com", authorizationURL: URL(string: "https://appleid.apple.com/auth/authorize?state=s")!,
            redirectURI: URL(string: "https://forwarder.example/cb")!, listenAddress: "127.0.0.1:8400", state: "s", formPost: true)
        #expect(try RemoteBootstrap(argument: " " + bootstrap.argument + "\n") == bootstrap)
        for broken in ["", "b1.", "b1.%%%", String(bootstrap.argument.dropLast(10)), "b2." + bootstrap.argument.dropFirst(3)] {
            #expect(throws: AuthError.self) { _ = try RemoteBootstrap(argument: broken) }
        }
        let http = RemoteBootstrap(
            providerID: "oidc.x", authorizationURL: URL(string: "http://idp.example/authorize")!,
            redirectURI: URL(string: "http://127.0.0.1:1/cb")!, state: "s", formPost: false)
        #expect(throws: AuthError.self, "plain http off loopback") { _ = try RemoteBootstrap(argument: http.argument) }
        let line = RemoteBootstrap.responseLine(redirect: "code=c&state=s&user=%7B%7D")
        #expect(try RemoteBootstrap.redirect(fromPasted: line + "\r\n") == "code=c&state=s&user=%7B%7D")
        #expect(try RemoteBootstrap.redirect(fromPasted: "http://127.0.0.1:1/cb?code=c") == nil, "an address is judged as it is")
        #expect(throws: AuthError.self) { _ = try RemoteBootstrap.redirect(fromPasted: RemoteBootstrap.responsePrefix + "!!") }
    }
}

@Suite("CIBA and the remote bootstrap against the in-process provider", .serialized)
struct BackchannelFlowTests {
    let provider: FakeIdentityProvider

    init() throws { provider = try FakeIdentityProvider() }

    func signIn(_ test: TestEnvironment, _ mode: FlowOptions.Mode, timeout: TimeInterval = 300) async throws -> SignIn.Output {
        try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), source: .interactive(FlowOptions(timeout: timeout, mode: mode))))
    }

    @Test("login --ciba with a client secret: the generated binding message is shown before the polls, the approval signs in")
    func approved() async throws {
        provider.behaviour.clientSecret = "s3cret"
        provider.behaviour.devicePolls = ["authorization_pending", "slow_down", "approve"]
        let clock = FixedClock(Date())
        let test = try await TestEnvironment(provider: provider, clock: clock, clientSecretEnv: "SECRET", secrets: ["SECRET": "s3cret"])
        let output = try await signIn(test, .backchannel(loginHint: "ada@example.com", bindingMessage: nil))
        #expect(output.isNewUser && output.user.providerData[0].tokens?.refreshToken != nil)
        #expect(clock.sleeps == [5, 5, 10], "interval 5, then 10 after slow_down")
        let sent = provider.backchannelRequests.first ?? [:]
        #expect(sent["login_hint"] == "ada@example.com" && sent["requested_expiry"] == nil && sent["scope"]?.contains("openid") == true)
        let events = test.terminal.events
        guard let shown = events.firstIndex(where: { if case .approveOnDevice = $0 { true } else { false } }) else {
            Issue.record("the binding message is shown")
            return
        }
        #expect(
            events[shown]
                == .approveOnDevice(provider: try ProviderID(parsing: "oidc.fake"), bindingMessage: sent["binding_message"] ?? "?"))
        #expect(provider.count("device-poll") == 3 && provider.count("authorize") == 0)
        for secret in provider.issuedSecrets where secret.hasPrefix("dc-ciba-") {
            #expect(!test.terminal.lines.joined().contains(secret), "the auth_req_id is never shown")
        }
    }

    @Test("login --ciba denied, expired, or an unknown person: a typed error and the keystore untouched")
    func refused() async throws {
        let test = try await TestEnvironment(provider: provider, clock: FixedClock(Date()))
        for (polls, code) in [
            (["authorization_pending", "access_denied"], AuthError.Code.invalidCredential), (["expired_token"], .webContextCancelled),
        ] {
            provider.behaviour.devicePolls = polls
            await #expect { _ = try await signIn(test, .backchannel(loginHint: "ada@example.com", bindingMessage: "m")) } throws: {
                ($0 as? AuthError)?.code == code
            }
        }
        await #expect { _ = try await signIn(test, .backchannel(loginHint: "nobody@example.com", bindingMessage: "m")) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential
        }
        #expect(test.keystore.writes == 0)
    }

    @Test("login --ciba is cancelled cleanly (Ctrl-C cancels the task while it waits between polls)")
    func cancelled() async throws {
        provider.behaviour.devicePolls = Array(repeating: "authorization_pending", count: 100)
        let clock = ManualClock()
        let test = try await TestEnvironment(provider: provider, clock: clock)
        let task = Task { try await signIn(test, .backchannel(loginHint: "ada@example.com", bindingMessage: "m")) }
        await clock.untilWaiting()
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(test.keystore.writes == 0)
    }

    /// The laptop: `bootstrap` with the argument the host showed, its browser following the
    /// provider's redirect into bootstrap's own listener; the line it prints.
    static func laptop(_ lines: [String]) async -> String? {
        guard let line = lines.first(where: { $0.contains("remoteBootstrap") }),
            let range = line.range(of: #"b1\.[A-Za-z0-9_-]+"#, options: .regularExpression)
        else { return nil }
        let clock = SystemClock()
        let random = SystemRandomSource()
        let bootstrap = Bootstrap(
            flow: BrokeredSignIn(
                clock: clock, random: random, browser: FollowingBrowser(),
                receivers: SystemRedirectReceivers(clock: clock, random: random, peers: ProcNetTCPPeerLookup()) { nil },
                events: RecordingTerminal()))
        return try? await bootstrap.run(.init(argument: String(line[range]), timeout: 30))
    }

    @Test("login --remote: the laptop's bootstrap line, pasted on the host, finishes the sign-in with the host's verifier")
    func remote() async throws {
        let terminal = RecordingTerminal(respond: Self.laptop)
        let test = try await TestEnvironment(provider: provider, browser: NoBrowserLauncher(), terminal: terminal)
        let output = try await signIn(test, .remote)
        #expect(output.isNewUser && provider.count("authorize") == 1)
    }

    @Test("login microsoft --remote (a tenant, redirect URI on localhost) and login apple --remote (form_post, the user field)")
    func remoteMicrosoftAndApple() async throws {
        let microsoft = try FakeMicrosoft()
        let test = try await TestEnvironment(
            microsoft: microsoft, tenant: "organizations", browser: NoBrowserLauncher(), terminal: RecordingTerminal(respond: Self.laptop))
        let signedIn = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "microsoft"), source: .interactive(FlowOptions(mode: .remote))))
        #expect(signedIn.isNewUser && microsoft.count("authorize") == 1)
        let argument = test.terminal.events.compactMap { event -> String? in
            if case .remoteBootstrap(let argument, _) = event { argument } else { nil }
        }.first
        #expect(try argument.map { try RemoteBootstrap(argument: $0).redirectURI.host } == "localhost")

        let apple = try FakeApple()
        let appleTest = try await TestEnvironment(
            apple: apple, browser: NoBrowserLauncher(), terminal: RecordingTerminal(respond: Self.laptop))
        let output = try await appleTest.signIn().run(
            .init(providerID: try ProviderID(parsing: "apple"), source: .interactive(FlowOptions(mode: .remote))))
        #expect(output.isNewUser && output.user.displayName == "Ada Lovelace", "the posted user field came through the pasted line")
        let appleArgument = appleTest.terminal.events.compactMap { event -> String? in
            if case .remoteBootstrap(let argument, _) = event { argument } else { nil }
        }.first
        #expect(try appleArgument.map { try RemoteBootstrap(argument: $0).formPost } == true)
    }

    @Test("bootstrap: the provider refusing in the browser is invalid-credential there, saying there is nothing to paste")
    func bootstrapRefused() async throws {
        provider.behaviour.authorizeError = "access_denied"
        let captured = ArgumentBox()
        let host = RecordingTerminal { lines in
            captured.set(lines.first(where: { $0.contains("remoteBootstrap") }))
            return nil
        }
        let test = try await TestEnvironment(provider: provider, browser: NoBrowserLauncher(), terminal: host)
        _ = try? await signIn(test, .remote)
        guard let line = captured.value, let range = line.range(of: #"b1\.[A-Za-z0-9_-]+"#, options: .regularExpression) else {
            Issue.record("the argument was shown")
            return
        }
        let clock = SystemClock()
        let random = SystemRandomSource()
        let bootstrap = Bootstrap(
            flow: BrokeredSignIn(
                clock: clock, random: random, browser: FollowingBrowser(),
                receivers: SystemRedirectReceivers(clock: clock, random: random, peers: ProcNetTCPPeerLookup()) { nil },
                events: RecordingTerminal()))
        await #expect { _ = try await bootstrap.run(.init(argument: String(line[range]), timeout: 30)) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential && ($0 as? AuthError)?.message.contains("nothing to paste") == true
                && ($0 as? AuthError)?.oauthError == .accessDenied
        }
    }

    @Test("login --remote refuses a line of another sign-in and a cut line (invalid-argument), nothing stored")
    func remoteRefusals() async throws {
        let other = RecordingTerminal { _ in RemoteBootstrap.responseLine(redirect: "http://127.0.0.1:50000/callback?code=c&state=other") }
        let cut = RecordingTerminal { _ in RemoteBootstrap.responsePrefix + "***" }
        for terminal in [other, cut] {
            let test = try await TestEnvironment(provider: provider, browser: NoBrowserLauncher(), terminal: terminal)
            await #expect { _ = try await signIn(test, .remote) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
            #expect(test.keystore.writes == 0)
        }
    }
}

/// A value a test's closure hands back.
final class ArgumentBox: @unchecked Sendable {
    private let lock = NSLock()
    private var held: String?
    var value: String? { lock.withLock { held } }
    func set(_ text: String?) { lock.withLock { if held == nil { held = text } } }
}
