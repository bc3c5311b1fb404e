/// How a client proves itself at a provider's token, device-authorization, revocation and
/// introspection endpoints (RFC 6749 §2.3; OpenID Connect Core 9): the one place where a
/// client authentication method is chosen and made. A new method (a certificate-bound
/// client, FAPI's audience rule) is added here and nowhere else.
///
/// A person's sign-ins use the provider's configured client: the provider's own
/// authentication first (Apple: a fresh client-secret JWT), else the configured secret (an
/// environment variable or a file), else the secret a registration issued to a client `login
/// URL` registered (sealed in the keystore), else none (a public client). A workload uses its own
/// client: a secret, `private_key_jwt` or a federated assertion, each read afresh from
/// where its record points. Secrets are read for one request and kept nowhere.
struct ClientAuthenticator: Sendable {
    let clock: any Clock
    /// A `private_key_jwt` draws its `jti` here.
    let random: any RandomSource
    let secrets: any SecretSource
    /// A federated assertion may come from a token service (GitHub Actions).
    let transport: any HTTPTransport
    /// The secrets registrations issued (RFC 7591 §3.2.1); nil: no client has one (tests).
    var registrations: (any RegistrationSecrets)? = nil

    /// The authentication of `client` at `provider`, by the method `discovery` allows (nil:
    /// before discovery, when the sign-in only checks that it can be made), for a request to
    /// `endpoint` (nil: the token endpoint), which an assertion names as its audience.
    func authentication(
        for client: TokenClient.Client, provider: any AuthorizationRules & WorkloadRules, discovery: DiscoveryDocument?,
        endpoint: URL? = nil
    ) async throws -> ClientAuthentication {
        let supported = discovery?.tokenEndpointAuthMethodsSupported
        switch client {
        case .configured:
            return Self.method(try await configured(provider, discovery: discovery, endpoint: endpoint), supported: supported)
        case .workload(let workload):
            return try await self.workload(workload, provider: provider, discovery: discovery, endpoint: endpoint)
        }
    }

    /// The provider's own client authentication, else the configured key (`private_key_jwt`)
    /// or secret, else `.none`. Without `discovery` (the check before a browser opens) a key
    /// file is read and checked, and nothing is signed: an assertion names an endpoint of it.
    func configured(_ provider: any AuthorizationRules & WorkloadRules, discovery: DiscoveryDocument?, endpoint: URL? = nil) async throws
        -> ClientAuthentication
    {
        if let own = try await provider.clientAuthentication(secrets: secrets, now: clock.now()) { return own }
        let config = provider.config
        if let path = config.clientCertificateFile {
            let pem = try secrets.certificateFile(path, option: .clientCertificateFile)
            guard let discovery else { return .none }
            return .assertion(
                try await ClientAssertion.signed(
                    pem: pem, path: path, clientID: try provider.requireClientID(),
                    audience: try Self.assertionAudience(provider: provider, discovery: discovery, endpoint: endpoint),
                    jti: random.base64URL(bytes: 18), now: clock.now(), certificateThumbprint: provider.wantsCertificateThumbprint))
        }
        if let name = config.clientSecretEnv {
            guard let value = try secrets.secretVariable(name, option: .clientSecretEnv), !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret of \(config.id) comes from the environment variable \(name), which is not set. Set it, or change \(input: .clientSecretEnv)"
                )
            }
            return .basic(secret: value)
        }
        if let path = config.clientSecretFile {
            return .basic(secret: try secrets.fileContents(path))
        }
        if let method = config.tokenEndpointAuthMethod { return try await registered(config, method: method) }
        return .none
    }

    /// The secret the authorization server issued when `login URL` registered the client, by
    /// the method the server chose; refused once expired or lost (the next `login URL`
    /// registers again).
    private func registered(_ config: ProviderConfig, method: String) async throws -> ClientAuthentication {
        let resource = config.registeredFor?.first ?? "URL"
        guard !config.registeredSecretExpired(at: clock.now()) else {
            throw AuthError.notConfigured(
                "the client secret that \(Sanitize.text(config.issuer ?? "?", limit: 100)) issued to \(config.id) has expired. Sign in again, which registers authctl anew: \(command: .login, "\(resource)")"
            )
        }
        // Only to the client and issuer it was issued for: config.json may have changed since.
        guard let kept = try await registrations?.clientSecret(for: config.id),
            kept.belongs(issuer: config.issuer, clientID: config.clientID), !kept.secret.isEmpty
        else {
            throw AuthError.notConfigured(
                "the keystore holds no client secret that \(Sanitize.text(config.issuer ?? "?", limit: 100)) issued to \(config.id)'s client (it was moved aside or restored from a backup, or config.json now names another issuer or client), so nothing was sent. Sign in again, which registers authctl anew: \(command: .login, "\(resource)")"
            )
        }
        return method == "client_secret_post" ? .post(secret: kept.secret) : .basic(secret: kept.secret)
    }

    /// A workload's authentication, read now from where its record points.
    private func workload(
        _ client: WorkloadClient, provider: any AuthorizationRules & WorkloadRules, discovery: DiscoveryDocument?, endpoint: URL?
    )
        async throws -> ClientAuthentication
    {
        let supported = discovery?.tokenEndpointAuthMethodsSupported
        switch client.authentication {
        case .none:
            return .none
        case .secretEnvironment(let name):
            guard let value = try secrets.secretVariable(name, option: .clientSecretEnv), !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret of the workload \(client.clientID) comes from the environment variable \(name), which is not set or empty. Set it, or sign in again with another \(input: .clientSecretEnv)"
                )
            }
            return Self.method(.basic(secret: value), supported: supported)
        case .secretFile(let path):
            let value = try secrets.fileContents(path)
            guard !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret file \(path) is empty. Put the secret in it, or change \(input: .clientSecretFile)")
            }
            return Self.method(.basic(secret: value), supported: supported)
        case .certificateFile(let path):
            guard let discovery else { throw AuthError.internalError("a client assertion needs the provider's token endpoint") }
            return .assertion(
                try await ClientAssertion.signed(
                    pem: try secrets.certificateFile(path, option: .certificateFile), path: path, clientID: client.clientID,
                    audience: try Self.assertionAudience(provider: provider, discovery: discovery, endpoint: endpoint),
                    jti: random.base64URL(bytes: 18), now: clock.now(), certificateThumbprint: provider.wantsCertificateThumbprint,
                    algorithm: client.assertionAlgorithm))
        case .federatedTokenFile, .federatedTokenEnvironment, .federatedTokenService:
            let assertion = FederatedAssertion(transport: transport, secrets: secrets)
            return .assertion(
                try await assertion.token(client.authentication, audience: client.federatedAudience ?? provider.defaultFederatedAudience))
        }
    }

    /// The `assertion` of a workload's JWT-bearer grant (RFC 7523 §2.1): its token, read now
    /// from its source. A CI service is asked for the audience given at sign-in, else the
    /// authorization server's issuer, which the assertion's `aud` must identify (RFC 7523 §3).
    func grantAssertion(_ source: WorkloadAuthentication, of client: WorkloadClient, discovery: DiscoveryDocument) async throws -> String {
        try await FederatedAssertion(transport: transport, secrets: secrets).token(
            source, audience: client.federatedAudience ?? discovery.issuer)
    }

    /// The `aud` of a `private_key_jwt` assertion: the URL of the endpoint it is sent to —
    /// the token endpoint (RFC 7523 §3), the pushed authorization request endpoint (which
    /// RFC 9126 §2 requires servers to accept; Glewlwyd takes nothing else there), the
    /// revocation endpoint — or under FAPI 2.0 the issuer identifier alone: the 2025 fix of
    /// the audience-injection attack, where a lying endpoint URL in one server's metadata
    /// made a client sign assertions another server would take.
    static func assertionAudience(provider: any ProviderIdentity, discovery: DiscoveryDocument, endpoint: URL? = nil) throws -> URL {
        guard provider.config.isFAPI2 else { return endpoint ?? discovery.tokenEndpoint }
        guard let issuer = URL(string: discovery.issuer) else {
            throw AuthError.notConfigured("the issuer of \(provider.id) is not a URL; a FAPI 2.0 client assertion names it")
        }
        return issuer
    }

    /// `client_secret_basic` unless the provider only advertises `client_secret_post`
    /// (OpenID Connect Discovery: basic is the default when the list is absent).
    static func method(_ authentication: ClientAuthentication, supported: [String]?) -> ClientAuthentication {
        guard case .basic(let secret) = authentication, let supported else { return authentication }
        if !supported.contains("client_secret_basic"), supported.contains("client_secret_post") { return .post(secret: secret) }
        return authentication
    }
}
