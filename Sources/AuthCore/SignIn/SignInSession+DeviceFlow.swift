/// The device authorization grant of a `SignInSession` (RFC 8628).
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
