#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Token revocation (RFC 7009) at the provider's advertised `revocation_endpoint`, used by
/// `signout --revoke`, `unlink` and `users delete`. Best effort: a failure is reported,
/// never thrown, so that the local operation still happens.
public struct TokenRevocation: Sendable {
    /// The result of revoking one identity's token.
    public struct Result: Sendable, Equatable {
        public enum Outcome: String, Sendable, Equatable {
            case revoked
            /// The provider advertises no `revocation_endpoint`.
            case notSupported = "not-supported"
            case failed
        }

        public var uid: String
        public var providerID: String
        public var result: Outcome
        public var message: String?
        /// Which token was sent: the refresh token, or the access token of an identity that
        /// has none (a workload, a sign-in without one).
        public var accessToken = false
    }

    let configStore: ConfigStore
    let transport: any HTTPTransport
    let clock: any Clock
    let metadataCache: any MetadataCache
    let secrets: any SecretSource
    /// A workload's `private_key_jwt` draws its `jti` here.
    let random: any RandomSource

    public init(
        configStore: ConfigStore, transport: any HTTPTransport, clock: any Clock, metadataCache: any MetadataCache,
        secrets: any SecretSource, random: any RandomSource = SystemRandomSource()
    ) {
        self.configStore = configStore
        self.transport = transport
        self.clock = clock
        self.metadataCache = metadataCache
        self.secrets = secrets
        self.random = random
    }

    /// Revokes the identity's refresh token (or its access token when it has none); nil
    /// when the identity holds no token.
    func revoke(_ identity: LinkedIdentity, uid: String) async -> Result? {
        guard let tokens = identity.tokens, let token = tokens.refreshToken ?? tokens.accessToken else { return nil }
        let isRefreshToken = tokens.refreshToken != nil
        func result(_ value: Result.Outcome, _ message: String? = nil) -> Result {
            Result(uid: uid, providerID: identity.providerID, result: value, message: message, accessToken: !isRefreshToken)
        }
        do {
            if let workload = identity.workload { return try await revoke(token, of: workload, identity: identity, result: result) }
            let provider = try configStore.identityProvider(ProviderID(parsing: identity.providerID))
            guard let clientID = provider.clientID else { return result(.failed, "no client id configured") }
            let discovery = try await ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache).discovery(
                for: provider)
            guard let endpoint = discovery.revocationEndpoint else { return result(.notSupported) }
            let form = try await ClientCredentials.tokenHintForm(
                token, isRefreshToken: isRefreshToken, provider: provider, clientID: clientID, discovery: discovery, secrets: secrets,
                now: clock.now())
            return try await send(endpoint, form.parameters, headers: form.headers, result: result)
        } catch let error as AuthError {
            return result(.failed, error.message.firstSentence)
        } catch {
            return result(.failed, "unexpected error")
        }
    }

    /// A workload's access token, revoked as the workload: its own client id, authenticated
    /// as at its grant (secret, key or federated token, read afresh), at the issuer it
    /// signed in at — never with the provider's configured client (a person's).
    private func revoke(
        _ token: String, of workload: WorkloadClient, identity: LinkedIdentity, result: (Result.Outcome, String?) -> Result
    ) async throws -> Result {
        let provider = try WorkloadGrant.provider(try configStore.workloadProvider(ProviderID(parsing: identity.providerID)), for: workload)
        let discovery = try await ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache).discovery(
            for: provider)
        guard discovery.issuer == identity.issuer else {
            return result(.failed, "the configuration of \(identity.providerID) now leads to another issuer than the workload's")
        }
        guard let endpoint = discovery.revocationEndpoint else { return result(.notSupported, nil) }
        let grant = WorkloadGrant(transport: transport, clock: clock, metadataCache: metadataCache, secrets: secrets, random: random)
        var parameters = [("token", token), ("token_type_hint", "access_token")]
        var headers: [String: String] = [:]
        try await grant.authentication(workload, provider: provider, discovery: discovery)
            .apply(clientID: workload.clientID, to: &parameters, headers: &headers)
        return try await send(endpoint, parameters, headers: headers, result: result)
    }

    /// The revocation request and what its answer says.
    private func send(
        _ endpoint: URL, _ parameters: [(String, String)], headers: [String: String], result: (Result.Outcome, String?) -> Result
    ) async throws -> Result {
        let response = try await transport.send(.form(endpoint, parameters, headers: headers))
        // RFC 7009 §2.2: 200 is success, its body ignored — unless it is an OAuth error
        // (§2.2.1), which some providers send with 200.
        if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) {
            return result(.failed, "HTTP \(response.status), \(error.summary)")
        }
        return response.status == 200 ? result(.revoked, nil) : result(.failed, "HTTP \(response.status)")
    }
}
