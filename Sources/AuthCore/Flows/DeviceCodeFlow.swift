#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The device authorization grant (RFC 8628), for machines without a browser: authctl
/// shows a code and a URL, the person approves on any other device, authctl polls the
/// token endpoint. Yields a `Credential`, like the browser flow.
///
/// The device flow has no `nonce` (RFC 8628 has no authorization request to carry it); the
/// ID token is otherwise validated in full. The device code itself is a secret and never
/// shown; the user code is meant to be read by a person.
struct DeviceCodeFlow: Sendable {
    let environment: AuthEnvironment

    func run(provider: any IdentityProvider, options: FlowOptions) async throws -> Credential {
        let config = provider.config
        let clientID = try provider.requireClientID()
        _ = try ClientCredentials.resolve(provider, environment: environment)
        let metadata = ProviderMetadata(environment: environment)
        let discovery = try await metadata.discovery(for: provider)
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.notConfigured(
                "\(provider.id) does not offer the device flow (its discovery document has no device_authorization_endpoint). Sign in through the browser instead, with --no-browser or --manual on a machine without one"
            )
        }
        try EndpointPolicy.check(endpoint, what: "the device authorization endpoint")
        let scopes = AuthorizationRequest.mergeScopes(provider.defaultScopes + config.scopes, options.scopes)
        func authentication() throws -> ClientAuthentication {
            ClientCredentials.method(
                try ClientCredentials.resolve(provider, environment: environment), supported: discovery.tokenEndpointAuthMethodsSupported)
        }
        let host = endpoint.host ?? "the provider"
        let authorization = try DeviceAuthorizationResponse.parse(
            try await environment.transport.send(
                DeviceAuthorizationRequest(endpoint: endpoint, clientID: clientID, scopes: scopes, authentication: try authentication())
                    .httpRequest),
            host: host)

        let terminal = environment.terminal
        if let complete = authorization.verificationURIComplete {
            terminal.notice(
                "To sign in to \(provider.id), open \(complete.absoluteString)\n  (or open \(authorization.verificationURI.absoluteString) and enter the code \(authorization.userCode))"
            )
        } else {
            terminal.notice(
                "To sign in to \(provider.id), open \(authorization.verificationURI.absoluteString) and enter the code \(authorization.userCode)"
            )
        }
        let started = environment.clock.now()
        var polling = DeviceTokenPolling(
            interval: authorization.interval, issuedAt: started, expiresIn: authorization.expiresIn, timeout: options.timeout)
        let until = min(polling.expiresAt, polling.timeoutAt)
        terminal.progress(
            "Waiting for the sign-in to be approved (until \(Self.clockTime(until)), \(Int(until.timeIntervalSince(started))) s)\(terminal.isInteractive ? "; press Ctrl-C to cancel" : "")…"
        )

        var action = polling.start(now: started)
        while true {
            switch action {
            case .wait(let seconds): try await environment.clock.sleep(for: seconds)
            case .fail(let error): throw error
            }
            let request = TokenRequest(
                tokenEndpoint: discovery.tokenEndpoint, clientID: clientID, grant: .deviceCode(authorization.deviceCode),
                authentication: try authentication())
            let response = try await environment.transport.send(request.httpRequest)
            // An OAuth error whatever the status: GitHub answers `authorization_pending` with 200.
            if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) {
                action = polling.next(after: error, now: environment.clock.now())
                continue
            }
            let tokens = try TokenResponse.parse(
                response, host: discovery.tokenEndpoint.host ?? "the provider", nextStep: provider.nextStep(for:))
            return try await CredentialAssembly(environment: environment, metadata: metadata).credential(
                tokens, provider: provider, discovery: discovery, clientID: clientID, nonce: nil, askedScopes: scopes)
        }
    }

    static func clockTime(_ date: Date) -> String {
        LocalClockTime.string(date)
    }
}
