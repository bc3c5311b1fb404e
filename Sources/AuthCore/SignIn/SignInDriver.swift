/// Performs the actions of a `SignInSession` through the ports it needs, and nothing else:
/// the token client (discovery, the token endpoint), the clock, the browser, the redirect
/// receiver and the events port.
struct SignInDriver: Sendable {
    let tokens: TokenClient
    let clock: any Clock
    let random: any RandomSource
    let browser: any BrowserLauncher
    let receivers: any RedirectReceivers
    let events: any AuthEventSink
    /// The ID-token checks and the profile (`CredentialAssembly`).
    let credentials: CredentialAssembly

    /// - Parameter apply: what is done with the credential (the account rules) before a
    ///   waiting browser gets its page, so that "Signed in" is said only once it is true.
    ///
    /// Generic over what `apply` gives, so kept small: the session's long loop (`drive`, an
    /// async function of some forty suspension points) is not, and is compiled once, not once
    /// per caller's result type (half a megabyte of the release binary).
    func run<T: Sendable>(provider: any IdentityProvider, options: FlowOptions, then apply: (Credential) async throws -> T)
        async throws -> T
    {
        let ending = try await drive(provider: provider, options: options)
        defer { ending.receiver?.close() }
        guard case .success(let credential) = ending.result, let page = ending.page, let browserAnswer = ending.browserAnswer else {
            if let page = ending.page { ending.browserAnswer?.answer(page) }
            return try await apply(try ending.result.get())
        }
        do {
            let value = try await apply(credential)
            browserAnswer.answer(page)
            return value
        } catch let error as AuthError {
            // The account rules refused it (an account exists for that email, the
            // identity is another user's): the browser is not told "Signed in".
            browserAnswer.answer(.page(status: 200, SignInPage.notFinished(because: error.message.firstSentence)))
            throw error
        } catch {
            browserAnswer.answer(.page(status: 200, SignInPage.failure))
            throw error
        }
    }

    /// How a session ended: its result, the page for a browser that waits for one, and the
    /// receiver, still open until that page is given (`run` closes it).
    struct Ending {
        var result: Result<Credential, AuthError>
        var page: ListenerResponse?
        var browserAnswer: BrowserAnswer?
        var receiver: (any RedirectReceiver)?
    }

    /// The session's actions performed until it finishes; the receiver is closed here when
    /// anything is thrown (Ctrl-C), else by `run`.
    private func drive(provider: any IdentityProvider, options: FlowOptions) async throws -> Ending {
        var options = options
        if case .backchannel(let loginHint, nil) = options.mode {
            // CIBA Core 1.0 §7.1: a short message the person sees on this screen and on their device.
            options.mode = .backchannel(
                loginHint: loginHint, bindingMessage: BackchannelAuthenticationRequest.generateBindingMessage(using: random))
        }
        var session = try SignInSession(
            provider: provider, options: options, attempt: .generate(using: random), startPath: "/start/" + random.base64URL(bytes: 32))
        var held = Held()
        var action = session.start()
        do {
            while true {
                if case .finish(let result, let page) = action {
                    return Ending(result: result, page: page, browserAnswer: held.browserAnswer, receiver: held.receiver)
                }
                action = try await step(action, provider: provider, held: &held, session: &session)
            }
        } catch {
            held.receiver?.close()
            throw error
        }
    }

    /// What the driver holds between actions.
    struct Held {
        var receiver: (any RedirectReceiver)?
        var browserAnswer: BrowserAnswer?
        /// The browser command's end, watched while the redirect is first awaited.
        var browserExited: (@Sendable () async -> Void)?
        /// The wait for the redirect, once a browser command's end was awaited beside it.
        var pendingRedirect: Task<ReceivedRedirect, any Error>?
    }

    /// One action performed, and the session's next.
    private func step(
        _ action: SignInSession.Action, provider: any IdentityProvider, held: inout Held, session: inout SignInSession
    ) async throws -> SignInSession.Action {
        let input: SignInSession.Input
        do {
            switch action {
            case .finish:
                throw AuthError.internalError("the sign-in finished twice")
            case .checkClientAuthentication:
                try await tokens.checkClientAuthentication(provider)
                input = .done
            case .fetchDiscovery:
                input = .discovery(try await tokens.signInDiscovery(for: provider))
            case .openReceiver(let pasted, let address, let access):
                let opened = try receivers.open(pasted: pasted, address: address, access: access)
                held.receiver = opened
                input = .receiverOpened(host: opened.host, port: opened.port, servesStartURL: opened.servesStartURL)
            case .report(let event):
                events.report(event)
                input = .done
            case .listen(let machine, let redirectURI, let deadline):
                held.receiver?.start(machine, redirectURI: redirectURI, until: deadline, events: events)
                input = .done
            case .openBrowser(let url):
                let started = await browser.launchWatching(url)
                // A browser command that failed is said so, before the URL shown in its place.
                if let failure = SignInEvent.failure(of: started.launch) { events.report(failure) }
                held.browserExited = started.exited
                input = .browserOpened(started.launch.opened)
            case .awaitRedirect:
                guard let receiver = held.receiver else { throw AuthError.internalError("the sign-in has no receiver for its redirect") }
                switch try await arrival(receiver, &held) {
                case .redirect(let redirect):
                    held.browserAnswer = redirect.browser
                    input = .redirect(redirect.outcome)
                case .browserEnded:
                    input = .browserEnded(
                        startServed: receiver.startServed, fresh: .generate(using: random),
                        freshStartPath: "/start/" + random.base64URL(bytes: 32))
                }
            case .renewStart(let expectation):
                input = .startRenewed(held.receiver?.renewStart(to: expectation) ?? false)
            case .requestDeviceAuthorization(let scopes, let discovery, let proofKey):
                input = .deviceAuthorization(
                    try await tokens.deviceAuthorization(
                        scopes: scopes, provider: provider, discovery: discovery, proofKey: proofKey,
                        binding: TokenClient.binding(for: provider, discovery: discovery)))
            case .pushAuthorization(let request, let endpoint, let discovery):
                input = .pushed(
                    try await tokens.pushAuthorization(
                        request.parameters, at: endpoint, provider: provider, discovery: discovery,
                        binding: TokenClient.binding(for: provider, discovery: discovery)))
            case .wait(let deadline):
                try await clock.sleep(until: deadline)
                input = .done
            case .exchange(let grant, let discovery, let idToken, let proof, let resources):
                // The tokens are obtained now, from the endpoints this discovery names (and for
                // resources, to be sent to them): that is where they stay bound.
                input = .tokens(
                    try await tokens.requestTokens(
                        grant, provider: provider, discovery: discovery, idToken: idToken, proof: proof, resource: resources.first,
                        moreResources: Array(resources.dropFirst()),
                        binding: TokenClient.binding(for: provider, discovery: discovery).adding(resources)))
            case .requestBackchannelAuthentication(let scopes, let loginHint, let bindingMessage, let discovery):
                input = .backchannelAuthentication(
                    try await tokens.backchannelAuthentication(
                        scopes: scopes, loginHint: loginHint, bindingMessage: bindingMessage, provider: provider, discovery: discovery,
                        binding: TokenClient.binding(for: provider, discovery: discovery)))
            case .poll(let grant, let discovery, let proof):
                input = .polled(
                    try await tokens.poll(
                        grant, provider: provider, discovery: discovery, proof: proof,
                        binding: TokenClient.binding(for: provider, discovery: discovery)))
            case .makeCredential(let making):
                input = .credential(try await credentials.credential(making, provider: provider))
            }
        } catch let error as AuthError {
            input = .failed(error)
        }
        // Anything else (Ctrl-C's CancellationError) ends the sign-in as it is.
        return session.next(input, now: clock.now())
    }
}
