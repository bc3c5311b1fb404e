/// The browser flow of a `SignInSession` (docs/sign-in.md steps 3–4): the authorization request,
/// the one-time start URL and the state machine that judges the redirect.
extension SignInSession {
    /// The host and port are known: the redirect URI, the authorization request, the state
    /// machine that judges the redirect; then the receiver listens.
    mutating func prepareRedirect(_ discovery: DiscoveryDocument, host: String, port: UInt16, servesStartURL: Bool, now: Date)
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
    mutating func listen(_ prepared: PreparedRedirect, authorizationURL: URL, now: Date) throws -> Action {
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
        if options.mode == .remote {
            // docs/remote.md: the machine with the browser listens; the verifier stays here.
            events.append(
                .remoteBootstrap(argument: remoteBootstrap(prepared, authorizationURL: authorizationURL).argument, provider: provider.id))
        } else if !servesStartURL {
            // Pasted: the person opens the authorization URL and pastes where it ended.
            events.append(.openURL(authorizationURL, provider: provider.id))
        }
        let redirect = Redirect(
            discovery: discovery, redirectURI: prepared.redirectURI, nonce: prepared.nonce, askedScopes: prepared.askedScopes,
            machine: machine, receiverHost: prepared.receiverHost, receiverPort: prepared.receiverPort,
            authorizationURL: servesStartURL ? authorizationURL : nil)
        if let undo = renewing {
            // The receiver listens already: it judges by the new request from now on.
            renewing = nil
            step = .renewingStart(redirect, undo: undo)
            return .renewStart(machine.expectation)
        }
        return try report(events, then: .listen(redirect), now: now)
    }

    /// What `bootstrap` needs on the machine with the browser (docs/remote.md): the
    /// authorization URL, the redirect URI (and, when that is a forwarding page elsewhere, the
    /// address to listen on), the `state`, and whether the answer comes by form_post.
    func remoteBootstrap(_ prepared: PreparedRedirect, authorizationURL: URL) -> RemoteBootstrap {
        let redirectHost = prepared.redirectURI.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
        let host = prepared.receiverHost.contains(":") ? "[\(prepared.receiverHost)]" : prepared.receiverHost
        return RemoteBootstrap(
            providerID: provider.id.rawValue, authorizationURL: authorizationURL, redirectURI: prepared.redirectURI,
            listenAddress: EndpointPolicy.isLoopback(host: redirectHost) ? nil : "\(host):\(prepared.receiverPort)",
            state: attempt.state, formPost: implicit || provider.responseMode(for: prepared.askedScopes) == "form_post")
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

    /// The browser command exited before the redirect came. When it had the start URL served
    /// (a text browser without a terminal fetches it and shows nothing), that URL is spent:
    /// the authorization request is made again with `fresh` (a new `state`, `nonce` and PKCE
    /// verifier; pushed again when requests are pushed) behind a new one-time start URL,
    /// shown on the terminal only. The served one stays spent, and a program that took it
    /// first holds a `state` that no longer counts (docs/sign-in.md step 3). Once only. A
    /// command that exited before anything was fetched (a launcher that hands the URL on)
    /// changes nothing: the wait goes on.
    mutating func browserEnded(
        _ redirect: Redirect, startServed: Bool, fresh: AuthorizationAttempt, freshStartPath: String, now: Date
    ) throws -> Action {
        guard startServed, !renewedStart, redirect.authorizationURL != nil, freshStartPath.hasPrefix("/start/"),
            freshStartPath.count > "/start/".count, freshStartPath != startPath, fresh.state != attempt.state
        else { return .awaitRedirect }
        renewedStart = true
        renewing = Renewal(redirect: redirect, attempt: attempt, startPath: startPath)
        attempt = fresh
        startPath = freshStartPath
        return try prepareRedirect(
            redirect.discovery, host: redirect.receiverHost, port: redirect.receiverPort, servesStartURL: true, now: now)
    }

    /// `http://HOST:PORT/start/<random>`, HOST being the redirect URI's when it is on this
    /// machine (the browser then reaches the listener as it will for the redirect), else the
    /// listener's own address (a forwarding page's redirect URI is elsewhere).
    func startURL(_ redirect: Redirect) throws -> URL {
        let redirectHost = redirect.redirectURI.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
        let host = redirectHost.flatMap { EndpointPolicy.isLoopback(host: $0) ? $0 : nil } ?? redirect.receiverHost
        // The path is base64url: nothing in it needs escaping.
        guard let url = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(redirect.receiverPort)\(startPath)") else {
            throw AuthError.internalError("could not make the start URL of the sign-in on \(Sanitize.text(host, limit: 60))")
        }
        return url
    }

    func waiting(_ redirect: Redirect, now: Date) -> SignInEvent {
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
    mutating func redirected(_ outcome: CallbackStateMachine.Outcome, _ redirect: Redirect) throws -> Action {
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
            discovery: redirect.discovery, idToken: .init(nonce: redirect.nonce), proof: protection.proof,
            resources: options.resource.map { [$0] + options.moreResources } ?? [])
    }
}
