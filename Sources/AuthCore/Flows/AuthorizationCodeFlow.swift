#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The browser sign-in of SPEC §3: discovery, a loopback listener, the authorization
/// request, the redirect, the code exchange and ID-token validation. Yields a `Credential`;
/// applying it to the keystore is the caller's job.
struct AuthorizationCodeFlow: Sendable {
    let environment: AuthEnvironment

    func run(provider: any IdentityProvider, options: FlowOptions) async throws -> Credential {
        let config = provider.config
        // Everything that can be checked without the network fails before the browser opens.
        let clientID = try provider.requireClientID()
        var parameters = config.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (name, value) in options.parameters {
            parameters.removeAll { $0.0 == name }
            parameters.append((name, value))
        }
        try AuthorizationRequest.checkCustomParameters(parameters)
        // A client secret that cannot be made (Apple: key file missing or unsafe) fails now.
        _ = try ClientCredentials.resolve(provider, environment: environment)
        let redirectOverride = try (options.redirectURI ?? config.redirectURI).map(Self.parseRedirectURI)
        let listenAddress =
            try options.listenAddress ?? config.listenAddress.map(ListenAddress.init(parsing:))
            ?? Self.listenAddress(impliedBy: redirectOverride)
        if options.mode != .manual { try Self.checkForwarding(redirectOverride, listenAddress: listenAddress) }

        let metadata = ProviderMetadata(environment: environment)
        let discovery = try await metadata.discovery(for: provider)

        // --manual needs no listener, only a port for the redirect URI: the browser's
        // attempt to reach it fails, and the person pastes the address it ended on.
        let listener = try RedirectListener(
            host: listenAddress.host, port: listenAddress.port, access: options.allowAnyLocalUser ? .anyLocalUser : .currentUser)
        defer { listener.close() }
        if options.mode == .manual { listener.close() }
        let redirectURI = try redirectOverride ?? provider.defaultRedirectURI(host: listenAddress.host, port: listener.port)
        let attempt = AuthorizationAttempt.generate(using: environment.random)
        // OpenID Connect Core 3.2 for providers that offer nothing else: the ID token comes
        // by form_post (a loopback listener never sees a fragment), bound by the nonce.
        let implicit = provider.usesImplicitFlow
        if implicit {
            environment.terminal.notice(
                "authctl: warning: \(provider.id) uses the implicit flow (--flow implicit): the ID token travels through the browser, and no access or refresh token comes with it. The code flow with PKCE is safer: use it if the provider offers it"
            )
        }
        let scopes = AuthorizationRequest.mergeScopes(provider.defaultScopes + config.scopes, options.scopes)
        // The nonce as sent and as the ID token must carry it (Apple: its SHA-256 hex digest).
        let nonce = provider.expectedNonce(forRawNonce: attempt.nonce)
        let request = AuthorizationRequest(
            authorizationEndpoint: discovery.authorizationEndpoint, issuer: provider.issuer, clientID: clientID,
            redirectURI: redirectURI, scopes: scopes, responseType: implicit ? "id_token" : "code",
            responseMode: implicit ? "form_post" : provider.responseMode(for: scopes), state: attempt.state, nonce: nonce,
            pkce: implicit ? nil : attempt.pkce, additionalParameters: parameters)
        // The browser gets a one-time local start URL that redirects to the authorization
        // URL: state, nonce and the PKCE challenge never reach another program's command line.
        let authorizationURL = try request.url()
        let start = CallbackStateMachine.StartPage(
            path: "/start/" + environment.random.base64URL(bytes: 32), authorizationURL: authorizationURL)
        let machine = CallbackStateMachine(
            expectation: .init(
                path: redirectURI.path, state: attempt.state, issuer: provider.issuer,
                issuerParameterRequired: discovery.authorizationResponseIssParameterSupported == true,
                resultParameter: implicit ? "id_token" : "code", start: options.mode == .manual ? nil : start))

        let exchange = CodeExchange(
            provider: provider, discovery: discovery, metadata: metadata, clientID: clientID, redirectURI: redirectURI,
            codeVerifier: attempt.pkce.codeVerifier, nonce: nonce, askedScopes: request.scopes, implicit: implicit)
        if options.mode == .manual {
            let outcome = try await pastedOutcome(machine, url: authorizationURL, redirectURI: redirectURI, provider: provider)
            return try await credential(from: outcome, exchange)
        }
        let startURL = try Self.startURL(start, redirectURI: redirectURI, listener: listener)
        let redirect = try await redirectOutcome(
            machine, url: authorizationURL, startURL: startURL, provider: provider, listener: listener, timeout: options.timeout)
        // The browser learns how the sign-in ended once it has: after the exchange and the
        // ID-token checks, not when the redirect arrives (SPEC §3 step 8).
        do {
            let credential = try await credential(from: redirect.outcome, exchange)
            redirect.browser.answer(.page(status: 200, SignInPage.signedIn(to: provider.id.rawValue)))
            return credential
        } catch {
            redirect.browser.answer(.page(status: 200, SignInPage.failed(because: (error as? AuthError)?.message)))
            throw error
        }
    }

    /// What the code exchange needs from the authorization request.
    struct CodeExchange: Sendable {
        let provider: any IdentityProvider
        let discovery: DiscoveryDocument
        let metadata: ProviderMetadata
        let clientID: String
        /// The same `redirect_uri` as the authorization request (RFC 6749 §4.1.3).
        let redirectURI: URL
        let codeVerifier: String
        let nonce: String
        let askedScopes: [String]
        /// `--flow implicit`: the response carries the ID token itself; nothing to exchange.
        let implicit: Bool
    }

    /// The redirect's outcome made into a credential: the provider's refusal, or the code
    /// exchanged (RFC 6749 §4.1.3) and the ID token validated.
    func credential(from outcome: CallbackStateMachine.Outcome, _ exchange: CodeExchange) async throws -> Credential {
        let provider = exchange.provider
        let response: AuthorizationResponse
        switch outcome {
        case .denied(let error):
            throw AuthError(
                .invalidCredential,
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
        let assembly = CredentialAssembly(environment: environment, metadata: exchange.metadata)
        if exchange.implicit {
            guard let idToken = response.idToken else {
                throw AuthError.invalidCredential("the sign-in response carried no ID token. Try again")
            }
            return try await assembly.idTokenOnly(
                idToken, provider: provider, discovery: exchange.discovery, clientID: exchange.clientID, nonce: exchange.nonce,
                callbackFields: response.extraParameters)
        }
        guard let code = response.code else {
            throw AuthError.invalidCredential("the sign-in response carried no authorization code. Try again")
        }
        let discovery = exchange.discovery
        let tokenRequest = TokenRequest(
            tokenEndpoint: discovery.tokenEndpoint, clientID: exchange.clientID,
            grant: .authorizationCode(code: code, redirectURI: exchange.redirectURI, codeVerifier: exchange.codeVerifier),
            authentication: ClientCredentials.method(
                try ClientCredentials.resolve(provider, environment: environment), supported: discovery.tokenEndpointAuthMethodsSupported))
        let tokens = try TokenResponse.parse(
            try await environment.transport.send(tokenRequest.httpRequest), host: discovery.tokenEndpoint.host ?? "the provider",
            nextStep: provider.nextStep(for:))
        return try await assembly.credential(
            tokens, provider: provider, discovery: discovery, clientID: exchange.clientID, nonce: exchange.nonce,
            askedScopes: exchange.askedScopes, callbackFields: response.extraParameters)
    }

    /// `http://HOST:PORT/start/<random>`, HOST being the redirect URI's when it is on this
    /// machine (the browser then reaches the listener as it will for the redirect), else the
    /// listener's own address (a forwarding page's redirect URI is elsewhere).
    static func startURL(_ start: CallbackStateMachine.StartPage, redirectURI: URL, listener: RedirectListener) throws -> URL {
        let redirectHost = redirectURI.host.map { $0.trimming(ScalarSet(charactersIn: "[]")) }
        let host = redirectHost.flatMap { EndpointPolicy.isLoopback(host: $0) ? $0 : nil } ?? listener.host
        // The path is base64url: nothing in it needs escaping.
        guard let url = URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(listener.port)\(start.path)") else {
            throw AuthError.internalError("could not make the start URL of the sign-in on \(Sanitize.text(host, limit: 60))")
        }
        return url
    }

    /// The browser flow: open the browser at the start URL (or print the authorization
    /// URL), then wait for the redirect.
    func redirectOutcome(
        _ machine: CallbackStateMachine, url: URL, startURL: URL, provider: any IdentityProvider, listener: RedirectListener,
        timeout: TimeInterval
    ) async throws -> RedirectListener.Redirect {
        let terminal = environment.terminal
        // The listener serves while the browser starts (a browser command may fetch the
        // start URL before it exits); a command that fails is known within a second.
        async let redirect = listener.waitForRedirect(machine, timeout: timeout) { event in
            switch event {
            case .refusedPeer(let owner):
                let who = if case .user(let uid) = owner { "another local user (uid \(uid))" } else { "a process whose owner is unknown" }
                terminal.notice(
                    "authctl: refused a connection to the sign-in listener from \(who). If your browser reaches this machine through another user's process (WSL, some containers), sign in with --allow-any-local-user"
                )
            }
        }
        if await environment.browser.open(startURL) {
            // The URL carries state and nonce: it is shown only when it must be (SECURITY.md).
            terminal.progress(
                "Opened the browser to sign in to \(provider.id). If nothing opened, run again with --no-browser to see the URL")
        } else {
            terminal.notice("Open this URL in a browser to sign in to \(provider.id):\n  \(url.absoluteString)")
        }
        terminal.progress(
            "Waiting for the sign-in on \(listener.host):\(listener.port) (timeout \(Int(timeout)) s)\(terminal.isInteractive ? "; press Ctrl-C to cancel" : "")…"
        )
        return try await redirect
    }

    /// `--manual`: the URL is printed; what the browser ended on is read from the terminal
    /// and judged by the same state machine as the listener's requests.
    func pastedOutcome(_ initial: CallbackStateMachine, url: URL, redirectURI: URL, provider: any IdentityProvider) async throws
        -> CallbackStateMachine.Outcome
    {
        let terminal = environment.terminal
        terminal.notice("Open this URL in a browser to sign in to \(provider.id):\n  \(url.absoluteString)")
        let prompt =
            "Then paste the address the browser ended on (its page may fail to load: that is expected), or the form body it posted, and press Enter:"
        guard let pasted = await terminal.readInput(prompt: prompt), !pasted.trimming(.whitespaces).isEmpty else {
            throw AuthError.cancelled(
                "no redirect URL arrived on stdin. Paste the address the browser ended on after signing in (--manual reads it from stdin)")
        }
        var machine = initial
        let action = machine.receive(PastedResponse.request(from: pasted, redirectPath: initial.expectation.path))
        guard case .finish(let outcome) = action.decision else {
            // What was pasted is never echoed (it may hold a code); what was expected is.
            let expected =
                "\(redirectURI.scheme ?? "http")://\(redirectURI.host ?? "")\(redirectURI.port.map { ":\($0)" } ?? "")\(redirectURI.path)"
            let reason = action.response.body.trimming(.whitespacesAndNewlines)
            throw AuthError.invalidArgument(
                "what was pasted is not the redirect of this sign-in (\(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)). Run the command again and paste the whole address the browser ended on, which starts with \(expected), or the form body it posted"
            )
        }
        return outcome
    }

    static func parseRedirectURI(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.host != nil, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw AuthError.invalidArgument("--redirect-uri '\(Sanitize.text(text))' is not an http(s) URL")
        }
        return url
    }

    /// A redirect URI off this machine (a registered `https` page that forwards the
    /// response to the listener, docs/apple.md) must be `https`, and the forwarding page
    /// must know where to post: the listener needs a fixed port.
    static func checkForwarding(_ redirectURI: URL?, listenAddress: ListenAddress) throws {
        guard let redirectURI, !EndpointPolicy.isLoopback(host: redirectURI.host) else { return }
        guard redirectURI.scheme?.lowercased() == "https" else {
            throw AuthError.invalidArgument(
                "--redirect-uri \(Sanitize.text(redirectURI.absoluteString)) is neither on this machine nor https. Use an https page that forwards to the listener, or a loopback URI"
            )
        }
        guard listenAddress.port != 0 else {
            throw AuthError.invalidArgument(
                "--redirect-uri \(Sanitize.text(redirectURI.absoluteString)) is not on this machine, so its page must forward to a listener at a fixed address: add --listen-address 127.0.0.1:PORT (the port the page posts to; see docs/apple.md)"
            )
        }
    }

    /// A loopback redirect URI with a port fixes the listening port (providers that match
    /// redirect URIs exactly); otherwise 127.0.0.1 and an ephemeral port.
    static func listenAddress(impliedBy redirectURI: URL?) -> ListenAddress {
        if let redirectURI, EndpointPolicy.isLoopback(host: redirectURI.host), let port = redirectURI.port {
            let host =
                redirectURI.host == "localhost" ? "127.0.0.1" : (redirectURI.host ?? "").trimming(ScalarSet(charactersIn: "[]"))
            return ListenAddress(host: host, port: UInt16(exactly: port) ?? 0)  // out of range: refused at parse time; never a trap
        }
        return ListenAddress(host: "127.0.0.1", port: 0)
    }
}
