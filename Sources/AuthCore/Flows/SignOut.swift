import Foundation

/// `authctl signout [--all] [--revoke]` (SPEC §2).
public struct SignOut: Sendable {
    public struct Input: Sendable {
        public var all: Bool
        public var revoke: Bool

        public init(all: Bool = false, revoke: Bool = false) {
            self.all = all
            self.revoke = revoke
        }
    }

    /// The result of revoking one identity's refresh token.
    public struct Revocation: Sendable, Equatable {
        public enum Result: String, Sendable, Equatable {
            case revoked
            /// The provider advertises no `revocation_endpoint`.
            case notSupported = "not-supported"
            case failed
        }

        public var uid: String
        public var providerID: String
        public var result: Result
        public var message: String?
    }

    public struct Output: Sendable, Equatable {
        public var signedOut: [String]
        public var revocations: [Revocation]
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> Output {
        let state = try environment.keystore.read()
        guard input.all || state.currentUser != nil else { throw AuthError.noCurrentUser }
        let users = state.users.filter { input.all ? $0.providerData.contains { $0.tokens != nil } : $0.uid == state.currentUID }
        var revocations: [Revocation] = []
        if input.revoke {
            for user in users {
                for identity in user.providerData {
                    guard let token = identity.tokens?.refreshToken ?? identity.tokens?.accessToken else { continue }
                    revocations.append(
                        await revoke(token, isRefreshToken: identity.tokens?.refreshToken != nil, identity: identity, uid: user.uid))
                }
            }
        }
        try await environment.keystore.update { state in try AccountRules.signOut(&state, all: input.all) }
        return Output(signedOut: users.map(\.uid), revocations: revocations)
    }

    /// Token revocation (RFC 7009) at the provider's advertised `revocation_endpoint`.
    func revoke(_ token: String, isRefreshToken: Bool, identity: LinkedIdentity, uid: String) async -> Revocation {
        func result(_ value: Revocation.Result, _ message: String? = nil) -> Revocation {
            Revocation(uid: uid, providerID: identity.providerID, result: value, message: message)
        }
        do {
            let provider = try environment.provider(ProviderID(parsing: identity.providerID))
            guard let clientID = provider.clientID else { return result(.failed, "no client id configured") }
            let discovery = try await ProviderMetadata(environment: environment).discovery(for: provider)
            guard let endpoint = discovery.revocationEndpoint else { return result(.notSupported) }
            var parameters = [("token", token), ("token_type_hint", isRefreshToken ? "refresh_token" : "access_token")]
            var headers: [String: String] = [:]
            ClientCredentials.method(
                try ClientCredentials.resolve(provider.config, secrets: environment.secrets),
                supported: discovery.tokenEndpointAuthMethodsSupported
            ).apply(clientID: clientID, to: &parameters, headers: &headers)
            let response = try await environment.transport.send(.form(endpoint, parameters, headers: headers))
            return response.status == 200 ? result(.revoked) : result(.failed, "HTTP \(response.status)")
        } catch let error as AuthError {
            return result(.failed, error.message)
        } catch {
            return result(.failed, "unexpected error")
        }
    }
}
