#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client-credentials grant of a workload (RFC 6749 §4.4; SPEC §3 "Workloads"): the
/// client authenticates by a secret, by `private_key_jwt` or by a federated assertion, each
/// read afresh from where the workload's record points, and gets an access token. No
/// refresh token is kept: the grant runs again when the token is needed.
public struct WorkloadGrant: Sendable {
    let transport: any HTTPTransport
    let clock: any Clock
    let metadata: ProviderMetadata
    let secrets: any SecretSource
    let random: any RandomSource

    public init(
        transport: any HTTPTransport, clock: any Clock, metadataCache: any MetadataCache, secrets: any SecretSource,
        random: any RandomSource
    ) {
        self.transport = transport
        self.clock = clock
        self.metadata = ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache)
        self.secrets = secrets
        self.random = random
    }

    /// What one grant yields: the issuer of the provider (the identity's) and the token.
    public struct Result: Sendable {
        public var issuer: String
        public var tokens: TokenSet
    }

    /// The provider a workload signs in to: the configured one, with the workload's client
    /// id and tenant, checked by the provider's workload rules.
    static func provider(_ config: ProviderConfig, for client: WorkloadClient) throws -> any IdentityProvider {
        var config = config
        config.clientID = client.clientID
        if let tenant = client.tenant { config.tenant = tenant }
        try config.validate()
        let provider = try ProviderRegistry.provider(for: config)
        try provider.checkWorkload()
        return provider
    }

    /// One grant for `scopes` (empty: the workload's own scopes, else the provider's default).
    /// - Parameter issuer: the issuer the workload signed in at (a renewal): its credential is
    ///   sent to no other, whatever the configuration says now.
    func run(_ client: WorkloadClient, provider: any IdentityProvider, scopes: [String] = [], issuer: String? = nil) async throws
        -> Result
    {
        let asked = !scopes.isEmpty ? scopes : !client.scopes.isEmpty ? client.scopes : provider.defaultWorkloadScopes
        let discovery = try await metadata.discovery(for: provider)
        if let issuer, discovery.issuer != issuer {
            throw AuthError.notConfigured(
                "the workload signed in at \(Sanitize.text(issuer, limit: 200)), and the configuration of \(provider.id) now leads to \(Sanitize.text(discovery.issuer, limit: 200)); its credential is sent only where it signed in. Sign the workload in again: \(command: .login, "\(provider.id)", .input(.clientCredentials, nil))"
            )
        }
        let authentication = try await self.authentication(client, provider: provider, discovery: discovery)
        let request = TokenRequest(
            tokenEndpoint: discovery.tokenEndpoint, clientID: client.clientID, grant: .clientCredentials(scopes: asked),
            authentication: authentication)
        let response = try TokenResponse.parse(
            try await transport.send(request.httpRequest), host: "\(provider.id) (\(discovery.tokenEndpoint.host ?? "?"))",
            nextStep: provider.workloadNextStep(for:))
        let now = clock.now()
        // A refresh token, had the provider sent one (RFC 6749 §4.4.3 says it should not), is
        // not kept: the workload's credentials are what renews its token.
        let tokens = TokenSet(
            accessToken: response.accessToken, tokenType: response.tokenType,
            expiresAt: response.expiresIn.map { now.addingTimeInterval($0) },
            refreshToken: nil, idToken: nil, scopes: response.scopes ?? asked)
        return Result(issuer: discovery.issuer, tokens: tokens)
    }

    /// How the client authenticates, read now from where the record points.
    func authentication(_ client: WorkloadClient, provider: any IdentityProvider, discovery: DiscoveryDocument) async throws
        -> ClientAuthentication
    {
        switch client.authentication {
        case .secretEnvironment(let name):
            guard let value = secrets.environmentValue(name), !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret of the workload \(client.clientID) comes from the environment variable \(name), which is not set or empty. Set it, or sign in again with another \(input: .clientSecretEnv)"
                )
            }
            return ClientCredentials.method(.basic(secret: value), supported: discovery.tokenEndpointAuthMethodsSupported)
        case .secretFile(let path):
            let value = try secrets.fileContents(path)
            guard !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret file \(path) is empty. Put the secret in it, or change \(input: .clientSecretFile)")
            }
            return ClientCredentials.method(.basic(secret: value), supported: discovery.tokenEndpointAuthMethodsSupported)
        case .certificateFile(let path):
            return .assertion(
                try await ClientAssertion.signed(
                    pem: try secrets.certificateFile(path), path: path, clientID: client.clientID, audience: discovery.tokenEndpoint,
                    jti: random.base64URL(bytes: 18), now: clock.now(), certificateThumbprint: provider.wantsCertificateThumbprint,
                    algorithm: client.assertionAlgorithm))
        case .federatedTokenFile, .federatedTokenEnvironment, .federatedTokenService:
            let assertion = FederatedAssertion(transport: transport, secrets: secrets)
            return .assertion(
                try await assertion.token(client.authentication, audience: client.federatedAudience ?? provider.defaultFederatedAudience))
        }
    }
}

extension ConfigStore {
    /// The configuration a workload signs in with: the configured provider, or for
    /// `microsoft.com` the defaults (`login.microsoftonline.com`, Graph) when it was never
    /// added — a workload names its tenant and client id on the command line, as `az login
    /// --service-principal` does. An `oidc.*` provider needs its issuer configured.
    public func workloadProvider(_ id: ProviderID) throws -> ProviderConfig {
        if case .microsoft = id.kind, try load().providers[id.rawValue] == nil { return ProviderConfig(id: id.rawValue) }
        return try provider(id)
    }
}
