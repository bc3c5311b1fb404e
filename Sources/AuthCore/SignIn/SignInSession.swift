/// One interactive sign-in (docs/sign-in.md) as a value-type session: like `CallbackStateMachine`
/// one level up, it does no I/O. Each call returns the next `Action`; the driver
/// (`SignInDriver`) performs it through the ports and feeds the result back as an `Input`.
///
/// Flows: the browser flow (code + PKCE, or `--flow implicit`: OpenID Connect Core 3.2 with
/// `form_post`) with the loopback listener or a pasted redirect (`--manual`), and the
/// device authorization grant (RFC 8628). Everything that can be checked without the
/// network is checked by `init`, before anything is fetched or opened.
public struct SignInSession: Sendable {
    public let provider: any IdentityProvider
    let options: FlowOptions
    let clientID: String
    let parameters: [(String, String)]
    let redirectOverride: URL?
    let listenAddress: ListenAddress
    /// `state`, `nonce` and the PKCE verifier; new ones with a renewed start URL. (Its DPoP
    /// key is the first attempt's, in `protection`, for the whole sign-in.)
    var attempt: AuthorizationAttempt
    /// The one-time start URL's path; a new one once a browser command showed nothing.
    var startPath: String
    /// The scopes asked for: the provider's defaults, the configured ones and `--scope`.
    let askedScopes: [String]

    /// Where the sign-in is; each state holds what the next steps need.
    enum Step: Sendable {
        case checkingClient
        case discovering
        case openingReceiver(DiscoveryDocument)
        case pushing(PreparedRedirect)
        case reporting([SignInEvent], then: Next)
        case listening(Redirect)
        case openingBrowser(Redirect, authorizationURL: URL)
        case awaitingRedirect(Redirect)
        case renewingStart(Redirect, undo: Renewal)
        case exchanging(Redirect, fields: [String: String])
        case making
        // Device flow, and CIBA's.
        case requestingDevice(DiscoveryDocument)
        case requestingBackchannel(DiscoveryDocument, bindingMessage: String)
        case polling(Device)
        case awaitingPoll(Device)
        case finished
    }

    /// What follows a run of events.
    enum Next: Sendable {
        case listen(Redirect)
        case awaitRedirect(Redirect)
        case poll(Device, issuedAt: Date)
    }

    /// Internal, not private, as the members below: the flows in SignInSession+*.swift set them.
    var step = Step.checkingClient
    /// DPoP and pushed requests, once the provider's metadata is known.
    var protection = RequestProtection.none
    /// A browser waits for the page that tells how the sign-in ended.
    var browserWaits = false
    /// The start URL was renewed already: a browser command ends once.
    var renewedStart = false
    /// The authorization request being made again is for a renewed start URL: what was
    /// before it, should the redirect come first.
    var renewing: Renewal?

    var deviceFlow: Bool { options.polls }
    var implicit: Bool { provider.usesImplicitFlow }

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
        if case .backchannel(let loginHint, let bindingMessage) = options.mode {
            try Self.checkBackchannel(loginHint: loginHint, bindingMessage: bindingMessage)
        }
        if options.polls {
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
            parameters += options.moreResources.map { ("resource", $0.absoluteString) }
        }
        self.parameters = parameters
        redirectOverride = try (options.redirectURI ?? config.redirectURI).map(Self.parseRedirectURI)
        listenAddress =
            try options.listenAddress ?? config.listenAddress.map(ListenAddress.init(parsing:))
            ?? Self.listenAddress(impliedBy: redirectOverride)
        if options.mode == .remote, provider.usesImplicitFlow {
            throw AuthError.invalidArgument(
                "\(input: .remote) signs in with the code flow; \(provider.id) is set to the implicit flow. Use \(input: .manual) instead")
        }
        if !options.pastesRedirect { try Self.checkForwarding(redirectOverride, listenAddress: listenAddress) }
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

    mutating func fail(_ error: AuthError) -> Action {
        step = .finished
        // The browser learns how the sign-in ended once it has (docs/sign-in.md step 8).
        return .finish(
            .failure(error), page: browserWaits ? .page(status: 200, SignInPage.failed(because: error.message.firstSentence)) : nil)
    }

    mutating func advance(_ input: Input, now: Date) throws -> Action {
        switch (step, input) {
        case (.checkingClient, .done):
            step = .discovering
            return .fetchDiscovery
        case (.discovering, .discovery(let document)):
            protection = try RequestProtection.decide(
                provider: provider, discovery: document, key: attempt.proofKey, usesTokenEndpoint: !implicit, browser: !deviceFlow)
            if case .backchannel(let loginHint, let bindingMessage) = options.mode {
                return try backchannelAuthentication(document, loginHint: loginHint, bindingMessage: bindingMessage ?? "")
            }
            if deviceFlow { return try deviceAuthorization(document) }
            step = .openingReceiver(document)
            return .openReceiver(
                pasted: options.pastesRedirect, address: listenAddress, access: options.allowAnyLocalUser ? .anyLocalUser : .currentUser)
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
        case (.awaitingRedirect(let redirect), .browserEnded(let startServed, let fresh, let freshStartPath)):
            return try browserEnded(redirect, startServed: startServed, fresh: fresh, freshStartPath: freshStartPath, now: now)
        case (.renewingStart(let redirect, let undo), .startRenewed(let renewedNow)):
            guard renewedNow else {
                // The redirect came first: the sign-in goes on as it was.
                (attempt, startPath) = (undo.attempt, undo.startPath)
                return try proceed(.awaitRedirect(undo.redirect), now: now)
            }
            let renewed = SignInEvent.browserEndedWithoutSignIn(provider: provider.id, startURL: try startURL(redirect))
            return try report([renewed], then: .awaitRedirect(redirect), now: now)
        case (.awaitingRedirect(let redirect), .redirect(let outcome)):
            browserWaits = !options.pastesRedirect
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
            let device = Device(discovery: discovery, grant: .deviceCode(authorization.deviceCode), polling: polling)
            return try report([code, approval], then: .poll(device, issuedAt: now), now: now)
        case (.requestingBackchannel(let discovery, let bindingMessage), .backchannelAuthentication(let authentication)):
            return try backchannelStarted(authentication, discovery: discovery, bindingMessage: bindingMessage, now: now)
        case (.polling(let device), .done):
            step = .awaitingPoll(device)
            return .poll(device.grant, discovery: device.discovery, proof: protection.proof)
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
    mutating func report(_ events: [SignInEvent], then: Next, now: Date) throws -> Action {
        step = .reporting(events, then: then)
        return try advance(.done, now: now)
    }

    mutating func proceed(_ next: Next, now: Date) throws -> Action {
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

}
