/// How a sign-in protects its requests and its tokens, decided once the provider's metadata
/// is known (docs/security.md, "Tokens a thief cannot use"): whether the tokens are bound
/// to a DPoP key (RFC 9449), whether the authorization request is pushed (RFC 9126), and
/// what the FAPI 2.0 profile adds. No I/O: the provider's configuration, its metadata and
/// the attempt's key decide.
public struct RequestProtection: Sendable, Equatable {
    /// The proof the token requests carry; `.none` for bearer tokens.
    public var proof: TokenClient.Proof
    /// Where the authorization request is pushed; nil: it goes in the browser's URL.
    public var pushEndpoint: URL?
    /// `iss` must be on the redirect (RFC 9207; FAPI 2.0 requires it).
    public var requiresIssuerOnRedirect: Bool

    public static let none = RequestProtection(proof: .none, pushEndpoint: nil, requiresIssuerOnRedirect: false)

    /// The protection of a sign-in at `provider`, by its configuration (`dpop`, `par`,
    /// `profile`) and `discovery`; an error when the configuration asks for what the provider
    /// lacks, naming both and the setting to change.
    /// - Parameters:
    ///   - key: the attempt's DPoP key, used when tokens are to be bound.
    ///   - usesTokenEndpoint: false for the implicit flow, which has no token request to bind.
    ///   - browser: false for the device flow, which has no authorization request to push.
    ///   - workload: a workload's client-credentials grant, which has no authorization
    ///     request (nothing to push, no redirect) and authenticates with its own client.
    public static func decide(
        provider: any IdentityProvider, discovery: DiscoveryDocument, key: DPoPKey, usesTokenEndpoint: Bool = true, browser: Bool = true,
        workload: WorkloadClient? = nil
    ) throws -> RequestProtection {
        let config = provider.config
        let id = provider.id
        if config.isFAPI2 {
            try checkFAPI2(
                provider: provider, discovery: discovery, usesTokenEndpoint: usesTokenEndpoint, browser: browser, workload: workload)
        }
        var protection = RequestProtection.none
        protection.requiresIssuerOnRedirect = config.isFAPI2

        // DPoP: offered when the provider lists ES256 (authctl's proof algorithm), required
        // when configured `always`.
        let algorithms = discovery.dpopSigningAlgValuesSupported
        switch config.dpopUse {
        case .never: break
        case .always:
            guard usesTokenEndpoint else {
                throw AuthError.invalidArgument(
                    "\(id) is set to \(input: .dpop) always, but the implicit flow has no token request to bind. Use the code flow (remove \(input: .flow) implicit) or set \(input: .dpop) auto"
                )
            }
            if let algorithms, !algorithms.contains("ES256") {
                throw AuthError.notConfigured(
                    "\(id) takes DPoP proofs signed with \(Sanitize.text(algorithms.joined(separator: ", "), limit: 120)) only; authctl signs with ES256. Set \(input: .dpop) auto or never with: \(command: .providersAdd, "\(id)", .input(.dpop, "auto"))"
                )
            }
            protection.proof = .required(key)
        case .auto:
            if usesTokenEndpoint, algorithms?.contains("ES256") == true { protection.proof = .offered(key) }
        }

        // PAR: used when the provider offers it; required by `always` and by the provider.
        guard browser else { return protection }
        let endpoint = discovery.pushedAuthorizationRequestEndpoint
        let required = discovery.requirePushedAuthorizationRequests == true
        switch config.parUse {
        case .never:
            if required {
                throw AuthError.notConfigured(
                    "\(id) requires pushed authorization requests (require_pushed_authorization_requests), and it is set to \(input: .par) never. Set it to auto with: \(command: .providersAdd, "\(id)", .input(.par, "auto"))"
                )
            }
        case .always, .auto:
            guard let endpoint else {
                if required {
                    throw AuthError.notConfigured(
                        "\(id) requires pushed authorization requests (require_pushed_authorization_requests) but names no pushed_authorization_request_endpoint in its metadata. The provider is misconfigured: tell its administrators"
                    )
                }
                if config.parUse == .always {
                    let fix: Message =
                        config.isFAPI2
                        ? "FAPI 2.0 requires them: use a provider that offers them"
                        : "Check the provider's configuration, or set \(input: .par) auto with: \(command: .providersAdd, "\(id)", .input(.par, "auto"))"
                    throw AuthError.notConfigured(
                        "\(id) has no pushed_authorization_request_endpoint in its metadata, but it is set to \(input: .par) always. \(fix)"
                    )
                }
                break
            }
            protection.pushEndpoint = endpoint
        }
        return protection
    }

    /// FAPI 2.0 Security Profile §5.3: pushed authorization requests, sender-constrained
    /// tokens (DPoP here), `iss` on the authorization response; each missing one named.
    /// A workload's grant needs DPoP and `private_key_jwt` only (it has no authorization
    /// request). A person's sign-in needs all of it, and a confidential client
    /// authenticated by `private_key_jwt`: the provider's `clientCertificateFile`.
    static func checkFAPI2(
        provider: any IdentityProvider, discovery: DiscoveryDocument, usesTokenEndpoint: Bool, browser: Bool, workload: WorkloadClient?
    ) throws {
        var missing: [String] = []
        if discovery.dpopSigningAlgValuesSupported?.contains("ES256") != true { missing.append("DPoP with ES256 (RFC 9449)") }
        if workload == nil, browser {
            if discovery.pushedAuthorizationRequestEndpoint == nil { missing.append("pushed authorization requests (RFC 9126)") }
            if discovery.authorizationResponseIssParameterSupported != true {
                missing.append("iss on the authorization response, announced by authorization_response_iss_parameter_supported (RFC 9207)")
            }
        }
        if discovery.tokenEndpointAuthMethodsSupported.map({ $0.contains("private_key_jwt") }) == false {
            missing.append("private_key_jwt client authentication")
        }
        guard missing.isEmpty else {
            throw AuthError.notConfigured(
                "\(provider.id) is set to \(input: .profile) fapi2, and its metadata lacks \(missing.joined(separator: "; ")). authctl stopped before sending anything. Use a provider that offers them, or remove the profile with: \(command: .providersAdd, "\(provider.id)", .input(.profile, "none"))"
            )
        }
        if !usesTokenEndpoint || !browser && workload == nil {
            throw AuthError.invalidArgument(
                "\(provider.id) is set to \(input: .profile) fapi2, which signs people in through the browser with the code flow and a pushed request: not with \(usesTokenEndpoint ? "the device flow" : "the implicit flow"). Sign in without \(input: usesTokenEndpoint ? .deviceCode : .flow)"
            )
        }
        if let workload {
            guard case .certificateFile = workload.authentication else {
                throw AuthError.invalidArgument(
                    "\(provider.id) is set to \(input: .profile) fapi2, which authenticates a client by private_key_jwt only: sign the workload in with \(input: .certificateFile) PEM, not a client secret or a federated token"
                )
            }
        } else if provider.config.clientCertificateFile == nil {
            throw AuthError.notConfigured(
                "\(provider.id) is set to \(input: .profile) fapi2, which needs a confidential client authenticated by private_key_jwt, and its client has no key, so authctl stopped before sending anything. Give the client's key: \(command: .providersAdd, "\(provider.id)", .input(.clientCertificateFile, "PEM")), or remove the profile: \(command: .providersAdd, "\(provider.id)", .input(.profile, "none"))"
            )
        }
    }
}
