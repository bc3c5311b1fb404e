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
    }

    let configStore: ConfigStore
    let transport: any HTTPTransport
    let clock: any Clock
    let metadataCache: any MetadataCache
    let secrets: any SecretSource

    public init(
        configStore: ConfigStore, transport: any HTTPTransport, clock: any Clock, metadataCache: any MetadataCache,
        secrets: any SecretSource
    ) {
        self.configStore = configStore
        self.transport = transport
        self.clock = clock
        self.metadataCache = metadataCache
        self.secrets = secrets
    }

    /// Revokes the identity's refresh token (or its access token when it has none); nil
    /// when the identity holds no token.
    func revoke(_ identity: LinkedIdentity, uid: String) async -> Result? {
        guard let tokens = identity.tokens, let token = tokens.refreshToken ?? tokens.accessToken else { return nil }
        let isRefreshToken = tokens.refreshToken != nil
        func result(_ value: Result.Outcome, _ message: String? = nil) -> Result {
            Result(uid: uid, providerID: identity.providerID, result: value, message: message)
        }
        do {
            let provider = try configStore.identityProvider(ProviderID(parsing: identity.providerID))
            guard let clientID = provider.clientID else { return result(.failed, "no client id configured") }
            let discovery = try await ProviderMetadata(transport: transport, clock: clock, metadataCache: metadataCache).discovery(
                for: provider)
            guard let endpoint = discovery.revocationEndpoint else { return result(.notSupported) }
            var parameters = [("token", token), ("token_type_hint", isRefreshToken ? "refresh_token" : "access_token")]
            var headers: [String: String] = [:]
            ClientCredentials.method(
                try ClientCredentials.resolve(provider, secrets: secrets, now: clock.now()),
                supported: discovery.tokenEndpointAuthMethodsSupported
            ).apply(clientID: clientID, to: &parameters, headers: &headers)
            let response = try await transport.send(.form(endpoint, parameters, headers: headers))
            // RFC 7009 §2.2: 200 is success, its body ignored — unless it is an OAuth error
            // (§2.2.1), which some providers send with 200.
            if let json = JSONValue.object(from: response.body), let error = OAuthErrorResponse(json) {
                return result(.failed, "HTTP \(response.status), \(error.summary)")
            }
            return response.status == 200 ? result(.revoked) : result(.failed, "HTTP \(response.status)")
        } catch let error as AuthError {
            return result(.failed, error.message.firstSentence)
        } catch {
            return result(.failed, "unexpected error")
        }
    }
}
