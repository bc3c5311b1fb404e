/// The sign-ins that poll the token endpoint while a person approves elsewhere: the device
/// authorization grant (RFC 8628) and Client-Initiated Backchannel Authentication in poll
/// mode (CIBA Core 1.0). Both wait the provider's `interval`, honour `authorization_pending`,
/// `slow_down`, `expired_token` and `access_denied` (`DeviceTokenPolling`), and validate the
/// ID token that comes back without a nonce (none was sent).
extension SignInSession {
    /// The device flow: the endpoint checked, then the device authorization request.
    mutating func deviceAuthorization(_ discovery: DiscoveryDocument) throws -> Action {
        guard let endpoint = discovery.deviceAuthorizationEndpoint else {
            throw AuthError.notConfigured(
                "\(provider.id) does not offer the device flow (its discovery document has no device_authorization_endpoint). Sign in through the browser instead, with \(input: .noBrowser) or \(input: .manual) on a machine without one"
            )
        }
        try EndpointPolicy.check(endpoint, what: "the device authorization endpoint")
        step = .requestingDevice(discovery)
        return .requestDeviceAuthorization(scopes: askedScopes, discovery: discovery, proofKey: protection.proof.key)
    }

    /// CIBA: the endpoint checked, then the backchannel authentication request.
    mutating func backchannelAuthentication(_ discovery: DiscoveryDocument, loginHint: String, bindingMessage: String) throws -> Action {
        guard let endpoint = discovery.backchannelAuthenticationEndpoint else {
            throw AuthError.notConfigured(
                "\(provider.id) does not offer CIBA (its discovery document has no backchannel_authentication_endpoint). Sign in with \(input: .remote) or \(input: .deviceCode) instead"
            )
        }
        if let modes = discovery.backchannelTokenDeliveryModesSupported, !modes.contains("poll") {
            throw AuthError.notConfigured(
                "\(provider.id) offers CIBA only in the modes \(modes.map { Sanitize.text($0, limit: 20) }.joined(separator: ", ")), not poll, which authctl uses. Sign in with \(input: .remote) or \(input: .deviceCode) instead"
            )
        }
        try EndpointPolicy.check(endpoint, what: "the backchannel authentication endpoint")
        step = .requestingBackchannel(discovery, bindingMessage: bindingMessage)
        return .requestBackchannelAuthentication(
            scopes: askedScopes, loginHint: loginHint, bindingMessage: bindingMessage, discovery: discovery)
    }

    /// The provider took the request: the binding message is shown (before any poll), then
    /// the polling starts at the provider's interval.
    mutating func backchannelStarted(
        _ authentication: BackchannelAuthenticationResponse, discovery: DiscoveryDocument, bindingMessage: String, now: Date
    ) throws -> Action {
        let polling = DeviceTokenPolling(
            interval: authentication.interval, issuedAt: now, expiresIn: authentication.expiresIn, timeout: options.timeout,
            subject: .backchannel)
        let until = min(polling.expiresAt, polling.timeoutAt)
        let seconds = until.timeIntervalSince(now)
        let events: [SignInEvent] = [
            .approveOnDevice(provider: provider.id, bindingMessage: bindingMessage),
            .waitingForApproval(until: until, seconds: seconds.isFinite ? Int(max(min(seconds, 1e9), -1e9)) : 0),
        ]
        let device = Device(discovery: discovery, grant: .backchannel(authReqID: authentication.authReqID), polling: polling)
        return try report(events, then: .poll(device, issuedAt: now), now: now)
    }

    /// What `--login-hint` and `--binding-message` must be before anything is sent.
    static func checkBackchannel(loginHint: String, bindingMessage: String?) throws {
        guard !loginHint.trimming(.whitespaces).isEmpty, loginHint.utf8.count <= 4096,
            !loginHint.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw AuthError.invalidArgument(
                "\(input: .loginHint) must name the person to sign in, in the provider's format (an e-mail address, a user name, a JSON object), on one line"
            )
        }
        if let bindingMessage { try BackchannelAuthenticationRequest.checkBindingMessage(bindingMessage) }
    }

    /// The next poll, or the end of the device flow.
    mutating func pollAction(_ action: DeviceTokenPolling.Action, _ device: Device, now: Date) -> Action {
        switch action {
        case .fail(let error): return fail(error)
        case .wait(let seconds):
            step = .polling(device)
            return .wait(until: now.addingTimeInterval(seconds))
        }
    }
}
