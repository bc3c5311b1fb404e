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
    let tokens: TokenClient

    public init(configStore: ConfigStore, tokens: TokenClient) {
        self.configStore = configStore
        self.tokens = tokens
    }

    /// Revokes the identity's refresh token (or its access token when it has none); nil
    /// when the identity holds no token.
    func revoke(_ identity: LinkedIdentity, uid: String) async -> Result? {
        guard let tokenSet = identity.tokens, let token = tokenSet.refreshToken ?? tokenSet.accessToken else { return nil }
        let isRefreshToken = tokenSet.refreshToken != nil
        func result(_ value: Result.Outcome, _ message: String? = nil) -> Result {
            Result(uid: uid, providerID: identity.providerID, result: value, message: message, accessToken: !isRefreshToken)
        }
        do {
            let provider: any IdentityProvider
            let client: TokenClient.Client
            if let workload = identity.workload {
                // A workload's token is revoked as the workload: its own client id,
                // authenticated as at its grant, never with the provider's configured client
                // (a person's).
                provider = try WorkloadGrant.provider(
                    try configStore.workloadProvider(ProviderID(parsing: identity.providerID)), for: workload)
                client = .workload(workload)
            } else {
                provider = try configStore.identityProvider(ProviderID(parsing: identity.providerID))
                guard provider.clientID != nil else { return result(.failed, "no client id configured") }
                client = .configured
            }
            let discovery = try await tokens.discovery(for: provider)
            // A workload's credential goes only to the issuer it signed in at.
            if identity.workload != nil, discovery.issuer != identity.issuer {
                return result(.failed, "the configuration of \(identity.providerID) now leads to another issuer than the workload's")
            }
            guard let endpoint = discovery.revocationEndpoint else { return result(.notSupported) }
            let answer = try await tokens.tokenHint(
                token, isRefreshToken: isRefreshToken, at: endpoint, provider: provider, client: client, discovery: discovery,
                binding: identity.binding)
            // RFC 7009 §2.2: 200 is success, its body ignored — unless it is an OAuth error
            // (§2.2.1), which some providers send with 200.
            if let error = answer.error { return result(.failed, "HTTP \(answer.status), \(error.summary)") }
            return answer.status == 200 ? result(.revoked) : result(.failed, "HTTP \(answer.status)")
        } catch let error as AuthError {
            return result(.failed, error.message.firstSentence)
        } catch {
            return result(.failed, "unexpected error")
        }
    }
}
