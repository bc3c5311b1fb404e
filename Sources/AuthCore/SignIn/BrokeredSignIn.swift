/// The browser flow when a broker holds the code exchange (docs/firebase.md: Firebase's
/// `createAuthUri` → browser → `signInWithIdp`). The broker makes the authorization URL with
/// its own client, `state` and `nonce`, and exchanges the code with its own secret; authctl
/// does what only it can do on this machine: the loopback listener, the one-time start URL,
/// the browser, the redirect whose `state` is the broker's — judged by the same
/// `CallbackStateMachine` — and the page the browser gets once the broker has answered.
///
/// It is a second path beside `SignInSession`, not a mode of it: no discovery, no PKCE, no
/// token request and no ID-token validation happen here, because the broker does them.
public struct BrokeredSignIn: Sendable {
    let clock: any Clock
    let random: any RandomSource
    let browser: any BrowserLauncher
    let receivers: any RedirectReceivers
    let events: any AuthEventSink

    public init(
        clock: any Clock, random: any RandomSource, browser: any BrowserLauncher, receivers: any RedirectReceivers,
        events: any AuthEventSink
    ) {
        self.clock = clock
        self.random = random
        self.browser = browser
        self.receivers = receivers
        self.events = events
    }

    /// - Parameters:
    ///   - authorize: asks the broker for the authorization URL, given the redirect URI
    ///     (`http://localhost:PORT/`, what the broker sends as `redirect_uri`).
    ///   - complete: hands the redirect to the broker; its outcome is what the browser's page says.
    ///   - successPage: the page once `complete` succeeded (default: signed in to the provider).
    public func run<T: Sendable>(
        providerID: ProviderID, options: FlowOptions,
        authorize: (String) async throws -> BrokeredAuthorization,
        complete: (BrokeredRedirect) async throws -> T,
        successPage: String? = nil
    ) async throws -> T {
        guard options.mode == .browser else {
            throw AuthError.invalidArgument(
                "with the Firebase backend, sign-in goes through the browser (Firebase runs the code exchange): \(input: .deviceCode), \(input: .manual), \(input: .ciba) and \(input: .remote) are not available. Use \(input: .noBrowser) to open the URL yourself"
            )
        }
        // `--redirect-uri`: a loopback URI of the user's choice, or an https page that forwards
        // the provider's answer to a listener at a fixed address (Apple, docs/apple.md); its
        // domain must be authorized in the Firebase console.
        let chosen = try options.redirectURI.map(SignInSession.parseRedirectURI)
        let address = options.listenAddress ?? SignInSession.listenAddress(impliedBy: chosen)
        try SignInSession.checkForwarding(chosen, listenAddress: address)
        let receiver = try receivers.open(
            pasted: false, address: address, access: options.allowAnyLocalUser ? .anyLocalUser : .currentUser)
        defer { receiver.close() }
        // `localhost` is an authorized domain of every Firebase project (docs/firebase.md).
        let redirectURI = chosen?.absoluteString ?? "http://localhost:\(receiver.port)/"
        let authorization = try await authorize(redirectURI)
        let startPath = "/start/" + random.base64URL(bytes: 32)
        let path = chosen.map { $0.path.isEmpty ? "/" : $0.path } ?? "/"
        let machine = CallbackStateMachine(
            expectation: .init(
                // No issuer: Firebase knows it and checks the `iss` passed on with the redirect.
                path: path, state: authorization.state, issuer: "", issuerParameterRequired: false, resultParameter: "code",
                start: .init(path: startPath, authorizationURL: authorization.authorizationURL)))
        let timeout = SignInSession.bounded(options.timeout)
        let deadline = clock.now().addingTimeInterval(timeout)
        // The browser reaches the start URL as it will reach the redirect: at the redirect
        // URI's host when that is this machine, else at the listener's own address.
        let redirectHost = chosen?.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
        let startHost =
            chosen == nil ? "localhost" : redirectHost.flatMap { EndpointPolicy.isLoopback(host: $0) ? $0 : nil } ?? receiver.host
        let startAuthority = (startHost.contains(":") ? "[\(startHost)]" : startHost) + ":\(receiver.port)"
        guard let redirectURL = URL(string: redirectURI), let startURL = URL(string: "http://\(startAuthority)\(startPath)") else {
            throw AuthError.internalError("could not make the redirect URI of the sign-in")
        }
        receiver.start(machine, redirectURI: redirectURL, until: deadline, events: events)
        let launch = await browser.launch(startURL)
        if let failure = SignInEvent.failure(of: launch) { events.report(failure) }
        let opened = launch.opened
        // The authorization URL carries state and nonce: shown only when it must be.
        let shown: SignInEvent =
            opened
            ? .browserOpened(provider: providerID, startURL: startURL) : .openURL(authorization.authorizationURL, provider: providerID)
        events.report(shown)
        events.report(.waitingForRedirect(host: receiver.host, port: receiver.port, until: deadline, timeout: options.timeout))
        let received = try await receiver.redirect()
        do {
            let redirect = try Self.redirect(received.outcome, to: redirectURI, authorization: authorization, providerID: providerID)
            let result = try await complete(redirect)
            received.browser?.answer(.page(status: 200, successPage ?? SignInPage.signedIn(to: providerID.rawValue)))
            return result
        } catch let error as AuthError {
            received.browser?.answer(.page(status: 200, SignInPage.failed(because: error.message.firstSentence)))
            throw error
        } catch {
            received.browser?.answer(.page(status: 200, SignInPage.failure))
            throw error
        }
    }

    /// The redirect as the broker reads it: the callback URL (`requestUri`) rebuilt from what
    /// arrived — the parameters are those of the request, in the query or, for form_post,
    /// in the body (`postBody`).
    static func redirect(
        _ outcome: CallbackStateMachine.Outcome, to redirectURI: String, authorization: BrokeredAuthorization, providerID: ProviderID
    ) throws -> BrokeredRedirect {
        let response: AuthorizationResponse
        switch outcome {
        case .denied(let error):
            throw AuthError.invalidCredential(
                "\(providerID) refused the sign-in: \(error.summary). Try again, or check the provider's settings in the Firebase console",
                oauthError: error.code)
        case .refused(let reason):
            throw AuthError.invalidCredential("the sign-in response was refused: \(reason). Try again")
        case .startURLReused:
            throw AuthError.cancelled(
                "the sign-in was stopped because its one-time start URL was opened twice (another program may have taken it). Sign in again"
            )
        case .authorized(let value):
            response = value
        }
        guard let code = response.code else {
            throw AuthError.invalidCredential("the sign-in response carried no authorization code. Try again")
        }
        var fields = [("code", code), ("state", authorization.state)]
        if let issuer = response.issuer { fields.append(("iss", issuer)) }
        fields += response.extraParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let encoded = FormURLEncoding.encode(fields)
        if authorization.formPost {
            return BrokeredRedirect(requestURI: redirectURI, postBody: encoded, sessionID: authorization.sessionID)
        }
        return BrokeredRedirect(requestURI: redirectURI + "?" + encoded, postBody: nil, sessionID: authorization.sessionID)
    }
}
