/// One interactive sign-in (SPEC §3) as a value-type session: like `CallbackStateMachine`
/// one level up, it does no I/O. Each call returns the next `Action`; the driver
/// (`SignInDriver`) performs it through the ports and feeds the result back as an `Input`.
///
/// Flows: the browser flow (code + PKCE, or `--flow implicit`: OpenID Connect Core 3.2 with
/// `form_post`) with the loopback listener or a pasted redirect (`--manual`), and the
/// device authorization grant (RFC 8628). Everything that can be checked without the
/// network is checked by `init`, before anything is fetched or opened.
public struct SignInSession: Sendable {
    /// What the driver does next.
    public enum Action: Sendable {
        /// The provider's client authentication, made now (Apple: a fresh client-secret JWT).
        case authenticateClient
        /// The discovery document (SPEC §3 step 1). → `.discovery`
        case fetchDiscovery
        /// The receiver of the redirect: a listener bound at `address`, or pasted input. → `.receiverOpened`
        case openReceiver(pasted: Bool, address: ListenAddress, access: LoopbackAccess)
        /// Tell the person something. → `.done`
        case report(SignInEvent)
        /// The receiver starts waiting for the redirect, judged by `machine`, until `deadline`. → `.done`
        case listen(CallbackStateMachine, redirectURI: URL, until: Date)
        /// Open the browser at this URL (the one-time start URL). → `.browserOpened`
        case openBrowser(URL)
        /// The redirect, once it arrives (or the receiver's deadline passes). → `.redirect`
        case awaitRedirect
        /// The device authorization request (RFC 8628 §3.1). → `.response`
        case requestDeviceAuthorization(HTTPRequest)
        /// Wait until this instant on the clock (the device flow's interval). → `.done`
        case wait(until: Date)
        /// The token request: the code exchange (RFC 6749 §4.1.3) or a device poll (RFC 8628 §3.4). → `.response`
        case exchange(TokenRequest)
        /// Validate the ID token (fetching the provider's keys, again once on an unknown
        /// `kid`) and make the credential: of a token response, or of an ID token alone
        /// (implicit flow). → `.credential`
        case makeCredential(CredentialMaking)
        /// The sign-in is over; `page` is the browser's answer when a browser waits for one.
        case finish(Result<Credential, AuthError>, page: ListenerResponse?)
    }

    /// What the driver learnt by performing the last action.
    public enum Input: Sendable {
        case done
        case clientAuthentication(ClientAuthentication)
        case discovery(DiscoveryDocument)
        case receiverOpened(host: String, port: UInt16, servesStartURL: Bool)
        case browserOpened(Bool)
        case redirect(CallbackStateMachine.Outcome)
        case response(HTTPResponse)
        case credential(Credential)
        /// The action failed (a network error, a bad ID token, Ctrl-C).
        case failed(AuthError)
    }

    /// The ID token checks and the credential, for the driver.
    public struct CredentialMaking: Sendable {
        public enum Source: Sendable {
            case tokens(TokenResponse, askedScopes: [String])
            case idToken(String)
        }
        public var source: Source
        public var discovery: DiscoveryDocument
        public var clientID: String
        public var nonce: String?
        public var callbackFields: [String: String]
    }

    public let provider: any IdentityProvider
    let options: FlowOptions
    let clientID: String
    let parameters: [(String, String)]
    let redirectOverride: URL?
    let listenAddress: ListenAddress
    let attempt: AuthorizationAttempt
    let startPath: String

    private enum Step: Sendable {
        case authenticating
        case discovering
        case openingReceiver
        case reporting([SignInEvent], then: Next)
        case listening
        case openingBrowser(URL)
        case awaitingRedirect
        case authenticatingExchange(code: String, fields: [String: String])
        case exchanging(fields: [String: String])
        case making
        // Device flow.
        case authorizingDevice
        case requestingDevice
        case polling(DeviceAuthorizationResponse, DeviceTokenPolling)
        case authenticatingPoll(DeviceAuthorizationResponse, DeviceTokenPolling)
        case awaitingPoll(DeviceAuthorizationResponse, DeviceTokenPolling)
        case finished
    }

    /// What follows a run of events.
    private enum Next: Sendable {
        case listen
        case browser(URL)
        case awaitRedirect
        case poll(DeviceAuthorizationResponse, DeviceTokenPolling, Date)
    }

    private var step = Step.authenticating
    private var discovery: DiscoveryDocument?
    private var redirectURI: URL?
    private var machine: CallbackStateMachine?
    private var nonce: String?
    private var askedScopes: [String] = []
    private var authentication = ClientAuthentication.none
    /// A browser waits for the page that tells how the sign-in ended.
    private var browserWaits = false

    private var deviceFlow: Bool { options.mode == .deviceCode }
    private var implicit: Bool { provider.usesImplicitFlow }

    /// - Parameters:
    ///   - attempt: `state`, `nonce` and the PKCE verifier, drawn by the caller (SPEC §3 step 2).
    ///   - startPath: the one-time start URL's path, `/start/<random>`.
    public init(provider: any IdentityProvider, options: FlowOptions, attempt: AuthorizationAttempt, startPath: String) throws {
        let config = provider.config
        self.provider = provider
        self.options = options
        self.attempt = attempt
        self.startPath = startPath
        clientID = try provider.requireClientID()
        askedScopes = AuthorizationRequest.mergeScopes(provider.defaultScopes + config.scopes, options.scopes)
        if options.mode == .deviceCode {
            parameters = []
            redirectOverride = nil
            listenAddress = ListenAddress(host: "127.0.0.1", port: 0)
            return
        }
        var parameters = config.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (name, value) in options.parameters {
            parameters.removeAll { $0.0 == name }
            parameters.append((name, value))
        }
        try AuthorizationRequest.checkCustomParameters(parameters)
        self.parameters = parameters
        redirectOverride = try (options.redirectURI ?? config.redirectURI).map(Self.parseRedirectURI)
        listenAddress =
            try options.listenAddress ?? config.listenAddress.map(ListenAddress.init(parsing:))
            ?? Self.listenAddress(impliedBy: redirectOverride)
        if options.mode != .manual { try Self.checkForwarding(redirectOverride, listenAddress: listenAddress) }
    }

    /// The first action: the client authentication is made once before anything else, so
    /// that a client secret that cannot be made (Apple: key file missing or unsafe) fails
    /// before the browser opens.
    public mutating func start() -> Action { .authenticateClient }

    /// The action after `input`, the result of the last one; `now` from the clock.
    public mutating func next(_ input: Input, now: Date) -> Action {
        if case .failed(let error) = input { return fail(error) }
        do {
            return try advance(input, now: now)
        } catch let error as AuthError {
            return fail(error)
        } catch {
            return fail(AuthError.internalError("the sign-in failed unexpectedly (\(String(describing: type(of: error))))"))
        }
    }

    private mutating func fail(_ error: AuthError) -> Action {
        step = .finished
        // The browser learns how the sign-in ended once it has (SPEC §3 step 8).
        return .finish(
            .failure(error), page: browserWaits ? .page(status: 200, SignInPage.failed(because: error.message.firstSentence)) : nil)
    }

    private mutating func advance(_ input: Input, now: Date) throws -> Action {
        switch (step, input) {
        case (.authenticating, .clientAuthentication(let value)):
            authentication = value
            step = .discovering
            return .fetchDiscovery
        case (.discovering, .discovery(let document)):
            discovery = document
            if deviceFlow { return try deviceAuthorization(document) }
            step = .openingReceiver
            return .openReceiver(
                pasted: options.mode == .manual, address: listenAddress, access: options.allowAnyLocalUser ? .anyLocalUser : .currentUser)
        case (.openingReceiver, .receiverOpened(let host, let port, let servesStartURL)):
            return try prepareRedirect(host: host, port: port, servesStartURL: servesStartURL, now: now)
        case (.reporting(var events, let then), .done):
            if !events.isEmpty {
                let event = events.removeFirst()
                step = .reporting(events, then: then)
                return .report(event)
            }
            return try proceed(then, now: now)
        case (.listening, .done):
            // The listener serves while the browser starts (a browser command may fetch the
            // start URL before it exits).
            return try proceed(authorizationURL.map(Next.browser) ?? .awaitRedirect, now: now)
        case (.openingBrowser(let authorizationURL), .browserOpened(let opened)):
            // The URL carries state and nonce: it is shown only when it must be (SECURITY.md).
            let shown: SignInEvent =
                opened ? .browserOpened(provider: provider.id, startURL: try startURL) : .openURL(authorizationURL, provider: provider.id)
            return try report([shown, waiting(now: now)], then: .awaitRedirect, now: now)
        case (.awaitingRedirect, .redirect(let outcome)):
            browserWaits = options.mode != .manual
            return try redirected(outcome)
        case (.authenticatingExchange(let code, let fields), .clientAuthentication(let value)):
            guard let discovery, let redirectURI else { throw AuthError.internalError("the sign-in lost its discovery document") }
            step = .exchanging(fields: fields)
            return .exchange(
                TokenRequest(
                    tokenEndpoint: discovery.tokenEndpoint, clientID: clientID,
                    grant: .authorizationCode(code: code, redirectURI: redirectURI, codeVerifier: attempt.pkce.codeVerifier),
                    authentication: ClientCredentials.method(value, supported: discovery.tokenEndpointAuthMethodsSupported)))
        case (.exchanging(let fields), .response(let response)):
            guard let discovery else { throw AuthError.internalError("the sign-in lost its discovery document") }
            let tokens = try TokenResponse.parse(
                response, host: "\(provider.id) (\(discovery.tokenEndpoint.host ?? "?"))", nextStep: provider.nextStep(for:))
            step = .making
            return .makeCredential(
                CredentialMaking(
                    source: .tokens(tokens, askedScopes: askedScopes), discovery: discovery, clientID: clientID, nonce: nonce,
                    callbackFields: fields))
        case (.making, .credential(let credential)):
            step = .finished
            return .finish(
                .success(credential), page: browserWaits ? .page(status: 200, SignInPage.signedIn(to: provider.id.rawValue)) : nil)
        case (.requestingDevice, .response(let response)):
            guard let discovery, let endpoint = discovery.deviceAuthorizationEndpoint else {
                throw AuthError.internalError("the sign-in lost its discovery document")
            }
            let authorization = try DeviceAuthorizationResponse.parse(response, host: "\(provider.id) (\(endpoint.host ?? "?"))")
            let polling = DeviceTokenPolling(
                interval: authorization.interval, issuedAt: now, expiresIn: authorization.expiresIn, timeout: options.timeout)
            let until = min(polling.expiresAt, polling.timeoutAt)
            let code = SignInEvent.deviceCode(
                provider: provider.id, verificationURI: authorization.verificationURI,
                verificationURIComplete: authorization.verificationURIComplete, userCode: authorization.userCode)
            let seconds = until.timeIntervalSince(now)
            let approval = SignInEvent.waitingForApproval(until: until, seconds: seconds.isFinite ? Int(max(min(seconds, 1e9), -1e9)) : 0)
            return try report([code, approval], then: .poll(authorization, polling, now), now: now)
        case (.polling(let authorization, let polling), .done):
            step = .authenticatingPoll(authorization, polling)
            return .authenticateClient
        case (.authenticatingPoll(let authorization, let polling), .clientAuthentication(let value)):
            guard let discovery else { throw AuthError.internalError("the sign-in lost its discovery document") }
            step = .awaitingPoll(authorization, polling)
            return .exchange(
                TokenRequest(
                    tokenEndpoint: discovery.tokenEndpoint, clientID: clientID, grant: .deviceCode(authorization.deviceCode),
                    authentication: ClientCredentials.method(value, supported: discovery.tokenEndpointAuthMethodsSupported)))
        case (.awaitingPoll(let authorization, var polling), .response(let response)):
            guard let discovery else { throw AuthError.internalError("the sign-in lost its discovery document") }
            // An OAuth error whatever the status: GitHub answers `authorization_pending` with 200.
            if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) {
                return pollAction(polling.next(after: error, now: now), authorization, polling, now: now)
            }
            let tokens = try TokenResponse.parse(
                response, host: "\(provider.id) (\(discovery.tokenEndpoint.host ?? "?"))", nextStep: provider.nextStep(for:))
            step = .making
            return .makeCredential(
                CredentialMaking(
                    source: .tokens(tokens, askedScopes: askedScopes), discovery: discovery, clientID: clientID, nonce: nil,
                    callbackFields: [:]))
        default:
            throw AuthError.internalError("the sign-in got an answer it did not ask for")
        }
    }

    /// Reports `events` one by one, then goes on with `then`.
    private mutating func report(_ events: [SignInEvent], then: Next, now: Date) throws -> Action {
        step = .reporting(events, then: then)
        return try advance(.done, now: now)
    }

    private mutating func proceed(_ next: Next, now: Date) throws -> Action {
        switch next {
        case .listen:
            guard let machine, let redirectURI else { throw AuthError.internalError("the sign-in lost its redirect") }
            step = .listening
            return .listen(machine, redirectURI: redirectURI, until: now.addingTimeInterval(Self.bounded(options.timeout)))
        case .browser(let authorizationURL):
            let url = try startURL
            step = .openingBrowser(authorizationURL)
            return .openBrowser(url)
        case .awaitRedirect:
            step = .awaitingRedirect
            return .awaitRedirect
        case .poll(let authorization, let polling, let issued):
            return pollAction(polling.start(now: issued), authorization, polling, now: issued)
        }
    }

    private mutating func pollAction(
        _ action: DeviceTokenPolling.Action, _ authorization: DeviceAuthorizationResponse, _ polling: DeviceTokenPolling, now: Date
    ) -> Action {
        switch action {
        case .fail(let error): return fail(error)
        case .wait(let seconds):
            step = .polling(authorization, polling)
            return .wait(until: now.addingTimeInterval(seconds))
        }
    }

    /// The host and port are known: the redirect URI, the authorization request, the state
    /// machine that judges the redirect; then the receiver listens.
    private mutating func prepareRedirect(host: String, port: UInt16, servesStartURL: Bool, now: Date) throws -> Action {
        guard let discovery else { throw AuthError.internalError("the sign-in lost its discovery document") }
        let redirectURI = try redirectOverride ?? provider.defaultRedirectURI(host: listenAddress.host, port: port)
        self.redirectURI = redirectURI
        receiverHost = host
        receiverPort = port
        // OpenID Connect Core 3.2 for providers that offer nothing else: the ID token comes
        // by form_post (a loopback listener never sees a fragment), bound by the nonce.
        // The nonce as sent and as the ID token must carry it (Apple: its SHA-256 hex digest).
        let nonce = provider.expectedNonce(forRawNonce: attempt.nonce)
        self.nonce = nonce
        let request = AuthorizationRequest(
            authorizationEndpoint: discovery.authorizationEndpoint, issuer: provider.issuer, clientID: clientID,
            redirectURI: redirectURI, scopes: askedScopes, responseType: implicit ? "id_token" : "code",
            responseMode: implicit ? "form_post" : provider.responseMode(for: askedScopes), state: attempt.state, nonce: nonce,
            pkce: implicit ? nil : attempt.pkce, additionalParameters: parameters)
        askedScopes = request.scopes
        // The browser gets a one-time local start URL that redirects to the authorization
        // URL: state, nonce and the PKCE challenge never reach another program's command line.
        let authorizationURL = try request.url()
        let start = CallbackStateMachine.StartPage(path: startPath, authorizationURL: authorizationURL)
        machine = CallbackStateMachine(
            expectation: .init(
                path: redirectURI.path, state: attempt.state, issuer: provider.issuer,
                issuerParameterRequired: discovery.authorizationResponseIssParameterSupported == true,
                resultParameter: implicit ? "id_token" : "code", start: servesStartURL ? start : nil))
        var events: [SignInEvent] = implicit ? [.implicitFlow(provider: provider.id)] : []
        if servesStartURL {
            self.authorizationURL = authorizationURL
        } else {
            // Pasted: the person opens the authorization URL and pastes where it ended.
            events.append(.openURL(authorizationURL, provider: provider.id))
        }
        return try report(events, then: .listen, now: now)
    }

    private var receiverHost = "127.0.0.1"
    private var receiverPort: UInt16 = 0
    /// The authorization URL behind the start URL (nil: no start URL, the URL is shown).
    private var authorizationURL: URL?

    /// `http://HOST:PORT/start/<random>`, HOST being the redirect URI's when it is on this
    /// machine (the browser then reaches the listener as it will for the redirect), else the
    /// listener's own address (a forwarding page's redirect URI is elsewhere).
    private var startURL: URL {
        get throws {
            let redirectHost = redirectURI?.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
            let host = redirectHost.flatMap { EndpointPolicy.isLoopback(host: $0) ? $0 : nil } ?? receiverHost
            // The path is base64url: nothing in it needs escaping.
            guard let url = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(receiverPort)\(startPath)") else {
                throw AuthError.internalError("could not make the start URL of the sign-in on \(Sanitize.text(host, limit: 60))")
            }
            return url
        }
    }

    private func waiting(now: Date) -> SignInEvent {
        let timeout = Self.bounded(options.timeout)
        return .waitingForRedirect(host: receiverHost, port: receiverPort, until: now.addingTimeInterval(timeout), timeout: options.timeout)
    }

    /// A timeout as a span that never traps (NaN: none; ∞ or huge: a billion seconds).
    static func bounded(_ timeout: TimeInterval) -> TimeInterval {
        timeout.isNaN ? 0 : min(max(timeout, 0), 1e9)
    }

    /// The redirect's outcome: the provider's refusal, or the code to exchange (RFC 6749
    /// §4.1.3), or the ID token itself (implicit flow).
    private mutating func redirected(_ outcome: CallbackStateMachine.Outcome) throws -> Action {
        let response: AuthorizationResponse
        switch outcome {
        case .denied(let error):
            throw AuthError.invalidCredential(
                "\(provider.id) refused the sign-in: \(error.summary). Try again, or check the app's registration at the provider",
                details: ["oauthError": .string(Sanitize.text(error.error, limit: 64))])
        case .refused(let reason):
            throw AuthError.invalidCredential("the sign-in response was refused: \(reason). Try again")
        case .startURLReused:
            throw AuthError.cancelled(
                "the sign-in was stopped because its one-time start URL was opened twice (another program may have taken it). Sign in again; if it happens again, check which programs run with your browser"
            )
        case .authorized(let value):
            response = value
        }
        guard let discovery else { throw AuthError.internalError("the sign-in lost its discovery document") }
        if implicit {
            guard let idToken = response.idToken else {
                throw AuthError.invalidCredential("the sign-in response carried no ID token. Try again")
            }
            step = .making
            return .makeCredential(
                CredentialMaking(
                    source: .idToken(idToken), discovery: discovery, clientID: clientID, nonce: nonce,
                    callbackFields: response.extraParameters))
        }
        guard let code = response.code else {
            throw AuthError.invalidCredential("the sign-in response carried no authorization code. Try again")
        }
        step = .authenticatingExchange(code: code, fields: response.extraParameters)
        return .authenticateClient
    }

    /// The device flow: the endpoint checked, then the device authorization request.
    private mutating func deviceAuthorization(_ discovery: DiscoveryDocument) throws -> Action {
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.notConfigured(
                "\(provider.id) does not offer the device flow (its discovery document has no device_authorization_endpoint). Sign in through the browser instead, with \(input: .noBrowser) or \(input: .manual) on a machine without one"
            )
        }
        try EndpointPolicy.check(endpoint, what: "the device authorization endpoint")
        step = .requestingDevice
        return .requestDeviceAuthorization(
            DeviceAuthorizationRequest(
                endpoint: endpoint, clientID: clientID, scopes: askedScopes,
                authentication: ClientCredentials.method(authentication, supported: discovery.tokenEndpointAuthMethodsSupported)
            ).httpRequest)
    }
}
