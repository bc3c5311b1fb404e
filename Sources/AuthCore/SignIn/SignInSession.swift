/// One interactive sign-in (docs/sign-in.md) as a value-type session: like `CallbackStateMachine`
/// one level up, it does no I/O. Each call returns the next `Action`; the driver
/// (`SignInDriver`) performs it through the ports and feeds the result back as an `Input`.
///
/// Flows: the browser flow (code + PKCE, or `--flow implicit`: OpenID Connect Core 3.2 with
/// `form_post`) with the loopback listener or a pasted redirect (`--manual`), and the
/// device authorization grant (RFC 8628). Everything that can be checked without the
/// network is checked by `init`, before anything is fetched or opened.
public struct SignInSession: Sendable {
    /// What the driver does next. Actions compare equal, so a test states the next one.
    public enum Action: Sendable, Equatable {
        /// Make the provider's client authentication once (Apple: a client-secret JWT from its
        /// key file), so that one that cannot be made fails before the browser opens. → `.done`
        case checkClientAuthentication
        /// The discovery document (docs/sign-in.md step 1). → `.discovery`
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
        /// The device authorization request (RFC 8628 §3.1) for these scopes, through the
        /// token client, bound to the DPoP key when there is one. → `.deviceAuthorization`
        case requestDeviceAuthorization(scopes: [String], discovery: DiscoveryDocument, proofKey: DPoPKey?)
        /// Push the authorization request (RFC 9126 §2.1) through the token client. → `.pushed`
        case pushAuthorization(AuthorizationRequest, to: URL, discovery: DiscoveryDocument)
        /// Wait until this instant on the clock (the device flow's interval). → `.done`
        case wait(until: Date)
        /// The code exchange through the token client (RFC 6749 §4.1.3), its ID token
        /// validated against `nonce`, for `resource` when the sign-in is for one (RFC 8707). → `.tokens`
        case exchange(
            TokenRequest.Grant, discovery: DiscoveryDocument, idToken: TokenClient.IDTokenExpectation, proof: TokenClient.Proof,
            resource: URL?)
        /// One poll of the device flow through the token client (RFC 8628 §3.4). → `.polled`
        case pollDevice(deviceCode: String, discovery: DiscoveryDocument, proof: TokenClient.Proof)
        /// Make the credential: of the tokens of a grant (their ID token validated already),
        /// or of an ID token alone (implicit flow: validated here, fetching the provider's
        /// keys, again once on an unknown `kid`). → `.credential`
        case makeCredential(CredentialMaking)
        /// The sign-in is over; `page` is the browser's answer when a browser waits for one.
        case finish(Result<Credential, AuthError>, page: ListenerResponse?)
    }

    /// What the driver learnt by performing the last action.
    public enum Input: Sendable {
        case done
        case discovery(DiscoveryDocument)
        case receiverOpened(host: String, port: UInt16, servesStartURL: Bool)
        case browserOpened(Bool)
        case redirect(CallbackStateMachine.Outcome)
        case deviceAuthorization(DeviceAuthorizationResponse)
        /// The token client's answer to `.pushAuthorization`.
        case pushed(TokenClient.Pushed)
        /// The token client's answer to `.exchange`.
        case tokens(TokenClient.Issued)
        /// The token client's answer to `.pollDevice`: the tokens, or the provider's OAuth error.
        case polled(TokenClient.DevicePoll)
        case credential(Credential)
        /// The action failed (a network error, a bad ID token, Ctrl-C).
        case failed(AuthError)
    }

    /// The ID token checks and the credential, for the driver.
    public struct CredentialMaking: Sendable, Equatable {
        public enum Source: Sendable, Equatable {
            case tokens(TokenClient.Issued, askedScopes: [String])
            case idToken(String)
        }
        public var source: Source
        public var discovery: DiscoveryDocument
        public var clientID: String
        public var nonce: String?
        public var callbackFields: [String: String]
        /// The rich authorization asked for (RFC 9396), kept when the provider does not say what it granted.
        public var authorizationDetails: AuthorizationDetails?
        /// The protected resource of the sign-in (RFC 8707), whose tokens need no ID token.
        public var resource: URL?

        public init(
            source: Source, discovery: DiscoveryDocument, clientID: String, nonce: String?, callbackFields: [String: String],
            authorizationDetails: AuthorizationDetails? = nil, resource: URL? = nil
        ) {
            self.source = source
            self.discovery = discovery
            self.clientID = clientID
            self.nonce = nonce
            self.callbackFields = callbackFields
            self.authorizationDetails = authorizationDetails
            self.resource = resource
        }
    }

    /// A browser sign-in once its receiver is open: everything the redirect is judged by and
    /// the exchange needs.
    struct Redirect: Sendable {
        var discovery: DiscoveryDocument
        var redirectURI: URL
        /// The nonce as sent and as the ID token must carry it.
        var nonce: String
        var askedScopes: [String]
        var machine: CallbackStateMachine
        /// Where the receiver is (the start URL's host and port when the redirect URI is elsewhere).
        var receiverHost: String
        var receiverPort: UInt16
        /// The authorization URL behind the start URL (nil: no start URL, the URL is shown).
        var authorizationURL: URL?
    }

    /// A browser sign-in once its receiver is open and its authorization request made: the
    /// redirect's parts known before the authorization URL (which waits for a pushed request).
    struct PreparedRedirect: Sendable {
        var discovery: DiscoveryDocument
        var redirectURI: URL
        var nonce: String
        var askedScopes: [String]
        var receiverHost: String
        var receiverPort: UInt16
        var servesStartURL: Bool
        var authorizationEndpoint: URL
    }

    /// A device sign-in once the provider has issued its codes.
    struct Device: Sendable {
        var discovery: DiscoveryDocument
        var authorization: DeviceAuthorizationResponse
        var polling: DeviceTokenPolling
    }

    public let provider: any IdentityProvider
    let options: FlowOptions
    let clientID: String
    let parameters: [(String, String)]
    let redirectOverride: URL?
    let listenAddress: ListenAddress
    let attempt: AuthorizationAttempt
    let startPath: String
    /// The scopes asked for: the provider's defaults, the configured ones and `--scope`.
    let askedScopes: [String]

    /// Where the sign-in is; each state holds what the next steps need.
    private enum Step: Sendable {
        case checkingClient
        case discovering
        case openingReceiver(DiscoveryDocument)
        case pushing(PreparedRedirect)
        case reporting([SignInEvent], then: Next)
        case listening(Redirect)
        case openingBrowser(Redirect, authorizationURL: URL)
        case awaitingRedirect(Redirect)
        case exchanging(Redirect, fields: [String: String])
        case making
        // Device flow.
        case requestingDevice(DiscoveryDocument)
        case polling(Device)
        case awaitingPoll(Device)
        case finished
    }

    /// What follows a run of events.
    private enum Next: Sendable {
        case listen(Redirect)
        case awaitRedirect(Redirect)
        case poll(Device, issuedAt: Date)
    }

    private var step = Step.checkingClient
    /// DPoP and pushed requests, once the provider's metadata is known.
    private var protection = RequestProtection.none
    /// A browser waits for the page that tells how the sign-in ended.
    private var browserWaits = false

    private var deviceFlow: Bool { options.mode == .deviceCode }
    private var implicit: Bool { provider.usesImplicitFlow }

    /// - Parameters:
    ///   - attempt: `state`, `nonce` and the PKCE verifier, drawn by the caller (docs/sign-in.md step 2).
    ///   - startPath: the one-time start URL's path, `/start/<random>`.
    public init(provider: any IdentityProvider, options: FlowOptions, attempt: AuthorizationAttempt, startPath: String) throws {
        let config = provider.config
        self.provider = provider
        self.options = options
        self.attempt = attempt
        self.startPath = startPath
        clientID = try provider.requireClientID()
        // A resource's sign-in (docs/resources.md) asks exactly the scopes chosen for it:
        // `openid` only when they name it.
        askedScopes =
            options.resource == nil
            ? AuthorizationRequest.mergeScopes(provider.defaultScopes + config.scopes, options.scopes)
            : options.scopes.reduce(into: [String]()) { if !$1.isEmpty && !$0.contains($1) { $0.append($1) } }
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
        if let resource = options.resource {
            // RFC 8707 §2.1: the resource the token is for, on the authorization request too.
            if parameters.contains(where: { $0.0 == "resource" }) {
                throw AuthError.invalidArgument(
                    "the custom parameter 'resource' is set by authctl for a resource's sign-in. Remove '\(input: .parameter) resource=…'")
            }
            parameters.append(("resource", resource.absoluteString))
        }
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
    public mutating func start() -> Action { .checkClientAuthentication }

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
        // The browser learns how the sign-in ended once it has (docs/sign-in.md step 8).
        return .finish(
            .failure(error), page: browserWaits ? .page(status: 200, SignInPage.failed(because: error.message.firstSentence)) : nil)
    }

    private mutating func advance(_ input: Input, now: Date) throws -> Action {
        switch (step, input) {
        case (.checkingClient, .done):
            step = .discovering
            return .fetchDiscovery
        case (.discovering, .discovery(let document)):
            protection = try RequestProtection.decide(
                provider: provider, discovery: document, key: attempt.proofKey, usesTokenEndpoint: !implicit, browser: !deviceFlow)
            if deviceFlow { return try deviceAuthorization(document) }
            step = .openingReceiver(document)
            return .openReceiver(
                pasted: options.mode == .manual, address: listenAddress, access: options.allowAnyLocalUser ? .anyLocalUser : .currentUser)
        case (.openingReceiver(let discovery), .receiverOpened(let host, let port, let servesStartURL)):
            return try prepareRedirect(discovery, host: host, port: port, servesStartURL: servesStartURL, now: now)
        case (.pushing(let prepared), .pushed(let pushed)):
            let url = try Self.pushedAuthorizationURL(prepared.authorizationEndpoint, pushed, clientID: clientID)
            return try listen(prepared, authorizationURL: url, now: now)
        case (.reporting(var events, let then), .done):
            if !events.isEmpty {
                let event = events.removeFirst()
                step = .reporting(events, then: then)
                return .report(event)
            }
            return try proceed(then, now: now)
        case (.listening(let redirect), .done):
            // The listener serves while the browser starts (a browser command may fetch the
            // start URL before it exits).
            guard let authorizationURL = redirect.authorizationURL else { return try proceed(.awaitRedirect(redirect), now: now) }
            let url = try startURL(redirect)
            step = .openingBrowser(redirect, authorizationURL: authorizationURL)
            return .openBrowser(url)
        case (.openingBrowser(let redirect, let authorizationURL), .browserOpened(let opened)):
            // The URL carries state and nonce: it is shown only when it must be (docs/security.md).
            let shown: SignInEvent =
                opened
                ? .browserOpened(provider: provider.id, startURL: try startURL(redirect))
                : .openURL(authorizationURL, provider: provider.id)
            return try report([shown, waiting(redirect, now: now)], then: .awaitRedirect(redirect), now: now)
        case (.awaitingRedirect(let redirect), .redirect(let outcome)):
            browserWaits = options.mode != .manual
            return try redirected(outcome, redirect)
        case (.exchanging(let redirect, let fields), .tokens(let issued)):
            step = .making
            return .makeCredential(
                CredentialMaking(
                    source: .tokens(issued, askedScopes: redirect.askedScopes), discovery: redirect.discovery,
                    clientID: clientID, nonce: redirect.nonce, callbackFields: fields, authorizationDetails: options.authorizationDetails,
                    resource: options.resource))
        case (.making, .credential(let credential)):
            step = .finished
            return .finish(
                .success(credential), page: browserWaits ? .page(status: 200, SignInPage.signedIn(to: provider.id.rawValue)) : nil)
        case (.requestingDevice(let discovery), .deviceAuthorization(let authorization)):
            let polling = DeviceTokenPolling(
                interval: authorization.interval, issuedAt: now, expiresIn: authorization.expiresIn, timeout: options.timeout)
            let until = min(polling.expiresAt, polling.timeoutAt)
            let code = SignInEvent.deviceCode(
                provider: provider.id, verificationURI: authorization.verificationURI,
                verificationURIComplete: authorization.verificationURIComplete, userCode: authorization.userCode)
            let seconds = until.timeIntervalSince(now)
            let approval = SignInEvent.waitingForApproval(until: until, seconds: seconds.isFinite ? Int(max(min(seconds, 1e9), -1e9)) : 0)
            let device = Device(discovery: discovery, authorization: authorization, polling: polling)
            return try report([code, approval], then: .poll(device, issuedAt: now), now: now)
        case (.polling(let device), .done):
            step = .awaitingPoll(device)
            return .pollDevice(deviceCode: device.authorization.deviceCode, discovery: device.discovery, proof: protection.proof)
        case (.awaitingPoll(var device), .polled(let poll)):
            switch poll {
            case .issued(let issued):
                step = .making
                return .makeCredential(
                    CredentialMaking(
                        source: .tokens(issued, askedScopes: askedScopes), discovery: device.discovery, clientID: clientID, nonce: nil,
                        callbackFields: [:], authorizationDetails: options.authorizationDetails, resource: options.resource))
            case .refused(let error):
                let action = device.polling.next(after: error, now: now)
                return pollAction(action, device, now: now)
            }
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
        case .listen(let redirect):
            step = .listening(redirect)
            return .listen(
                redirect.machine, redirectURI: redirect.redirectURI, until: now.addingTimeInterval(Self.bounded(options.timeout)))
        case .awaitRedirect(let redirect):
            step = .awaitingRedirect(redirect)
            return .awaitRedirect
        case .poll(let device, let issuedAt):
            return pollAction(device.polling.start(now: issuedAt), device, now: issuedAt)
        }
    }

    private mutating func pollAction(_ action: DeviceTokenPolling.Action, _ device: Device, now: Date) -> Action {
        switch action {
        case .fail(let error): return fail(error)
        case .wait(let seconds):
            step = .polling(device)
            return .wait(until: now.addingTimeInterval(seconds))
        }
    }

    /// The host and port are known: the redirect URI, the authorization request, the state
    /// machine that judges the redirect; then the receiver listens.
    private mutating func prepareRedirect(_ discovery: DiscoveryDocument, host: String, port: UInt16, servesStartURL: Bool, now: Date)
        throws -> Action
    {
        let redirectURI = try redirectOverride ?? provider.defaultRedirectURI(host: listenAddress.host, port: port)
        // OpenID Connect Core 3.2 for providers that offer nothing else: the ID token comes
        // by form_post (a loopback listener never sees a fragment), bound by the nonce.
        // The nonce as sent and as the ID token must carry it (Apple: its SHA-256 hex digest).
        let nonce = provider.expectedNonce(forRawNonce: attempt.nonce)
        var additional = parameters
        if let key = protection.proof.key { additional.append(("dpop_jkt", key.thumbprint)) }
        if let details = options.authorizationDetails { additional.append(("authorization_details", details.json)) }
        let request = AuthorizationRequest(
            authorizationEndpoint: discovery.authorizationEndpoint, issuer: provider.issuer, clientID: clientID,
            redirectURI: redirectURI, scopes: askedScopes, responseType: implicit ? "id_token" : "code",
            responseMode: implicit ? "form_post" : provider.responseMode(for: askedScopes), state: attempt.state, nonce: nonce,
            pkce: implicit ? nil : attempt.pkce, additionalParameters: additional)
        let prepared = PreparedRedirect(
            discovery: discovery, redirectURI: redirectURI, nonce: nonce, askedScopes: request.scopes, receiverHost: host,
            receiverPort: port, servesStartURL: servesStartURL, authorizationEndpoint: discovery.authorizationEndpoint)
        if let endpoint = protection.pushEndpoint {
            // RFC 9126: the request goes to the provider directly, authenticated; the browser
            // gets only `client_id` and the `request_uri` that stands for it.
            step = .pushing(prepared)
            return .pushAuthorization(request, to: endpoint, discovery: discovery)
        }
        return try listen(prepared, authorizationURL: try request.url(), now: now)
    }

    /// The authorization URL is known: the state machine that judges the redirect, then the
    /// receiver listens.
    private mutating func listen(_ prepared: PreparedRedirect, authorizationURL: URL, now: Date) throws -> Action {
        let discovery = prepared.discovery
        let servesStartURL = prepared.servesStartURL
        // The browser gets a one-time local start URL that redirects to the authorization
        // URL: state, nonce and the PKCE challenge never reach another program's command line.
        let start = CallbackStateMachine.StartPage(path: startPath, authorizationURL: authorizationURL)
        let machine = CallbackStateMachine(
            expectation: .init(
                path: prepared.redirectURI.path, state: attempt.state, issuer: provider.issuer,
                issuerParameterRequired: discovery.authorizationResponseIssParameterSupported == true
                    || protection.requiresIssuerOnRedirect,
                resultParameter: implicit ? "id_token" : "code", start: servesStartURL ? start : nil))
        var events: [SignInEvent] = implicit ? [.implicitFlow(provider: provider.id)] : []
        if !servesStartURL {
            // Pasted: the person opens the authorization URL and pastes where it ended.
            events.append(.openURL(authorizationURL, provider: provider.id))
        }
        let redirect = Redirect(
            discovery: discovery, redirectURI: prepared.redirectURI, nonce: prepared.nonce, askedScopes: prepared.askedScopes,
            machine: machine, receiverHost: prepared.receiverHost, receiverPort: prepared.receiverPort,
            authorizationURL: servesStartURL ? authorizationURL : nil)
        return try report(events, then: .listen(redirect), now: now)
    }

    /// The URL the browser opens for a pushed request (RFC 9126 §4): the authorization
    /// endpoint (its own query kept) with `client_id` and `request_uri` alone.
    static func pushedAuthorizationURL(_ endpoint: URL, _ pushed: TokenClient.Pushed, clientID: String) throws -> URL {
        guard endpoint.fragment == nil, var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw AuthError.notConfigured("the provider's authorization endpoint has a fragment, which OAuth forbids (RFC 6749 §3.1)")
        }
        let own = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
        let encoded = FormURLEncoding.encode([("client_id", clientID), ("request_uri", pushed.requestURI)])
        components.percentEncodedQuery = own.map { "\($0)&\(encoded)" } ?? encoded
        guard let url = components.url else {
            throw AuthError.notConfigured("the provider's authorization endpoint cannot carry a pushed request's URI")
        }
        return url
    }

    /// `http://HOST:PORT/start/<random>`, HOST being the redirect URI's when it is on this
    /// machine (the browser then reaches the listener as it will for the redirect), else the
    /// listener's own address (a forwarding page's redirect URI is elsewhere).
    private func startURL(_ redirect: Redirect) throws -> URL {
        let redirectHost = redirect.redirectURI.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
        let host = redirectHost.flatMap { EndpointPolicy.isLoopback(host: $0) ? $0 : nil } ?? redirect.receiverHost
        // The path is base64url: nothing in it needs escaping.
        guard let url = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(redirect.receiverPort)\(startPath)") else {
            throw AuthError.internalError("could not make the start URL of the sign-in on \(Sanitize.text(host, limit: 60))")
        }
        return url
    }

    private func waiting(_ redirect: Redirect, now: Date) -> SignInEvent {
        let timeout = Self.bounded(options.timeout)
        return .waitingForRedirect(
            host: redirect.receiverHost, port: redirect.receiverPort, until: now.addingTimeInterval(timeout), timeout: options.timeout)
    }

    /// A timeout as a span that never traps (NaN: none; ∞ or huge: a billion seconds).
    static func bounded(_ timeout: TimeInterval) -> TimeInterval {
        timeout.isNaN ? 0 : min(max(timeout, 0), 1e9)
    }

    /// The redirect's outcome: the provider's refusal, or the code to exchange (RFC 6749
    /// §4.1.3), or the ID token itself (implicit flow).
    private mutating func redirected(_ outcome: CallbackStateMachine.Outcome, _ redirect: Redirect) throws -> Action {
        let response: AuthorizationResponse
        switch outcome {
        case .denied(let error):
            throw AuthError.invalidCredential(
                "\(provider.id) refused the sign-in: \(error.summary). Try again, or check the app's registration at the provider",
                oauthError: error.code)
        case .refused(let reason):
            throw AuthError.invalidCredential("the sign-in response was refused: \(reason). Try again")
        case .startURLReused:
            throw AuthError.cancelled(
                "the sign-in was stopped because its one-time start URL was opened twice (another program may have taken it). Sign in again; if it happens again, check which programs run with your browser"
            )
        case .authorized(let value):
            response = value
        }
        if implicit {
            guard let idToken = response.idToken else {
                throw AuthError.invalidCredential("the sign-in response carried no ID token. Try again")
            }
            step = .making
            return .makeCredential(
                CredentialMaking(
                    source: .idToken(idToken), discovery: redirect.discovery, clientID: clientID, nonce: redirect.nonce,
                    callbackFields: response.extraParameters))
        }
        guard let code = response.code else {
            throw AuthError.invalidCredential("the sign-in response carried no authorization code. Try again")
        }
        step = .exchanging(redirect, fields: response.extraParameters)
        return .exchange(
            .authorizationCode(code: code, redirectURI: redirect.redirectURI, codeVerifier: attempt.pkce.codeVerifier),
            discovery: redirect.discovery, idToken: .init(nonce: redirect.nonce), proof: protection.proof, resource: options.resource)
    }

    /// The device flow: the endpoint checked, then the device authorization request.
    private mutating func deviceAuthorization(_ discovery: DiscoveryDocument) throws -> Action {
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.notConfigured(
                "\(provider.id) does not offer the device flow (its discovery document has no device_authorization_endpoint). Sign in through the browser instead, with \(input: .noBrowser) or \(input: .manual) on a machine without one"
            )
        }
        try EndpointPolicy.check(endpoint, what: "the device authorization endpoint")
        step = .requestingDevice(discovery)
        return .requestDeviceAuthorization(scopes: askedScopes, discovery: discovery, proofKey: protection.proof.key)
    }
}
