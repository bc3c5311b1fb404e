#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `authctl unlink PROVIDER`: removes the identity (and its tokens) from the current user
/// (SPEC §2, §5). Its refresh token is revoked first where the provider allows it.
public struct Unlink: Sendable {
    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
        /// Nil when the identity held no token.
        public var revocation: TokenRevocation.Result?
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(providerID: ProviderID) async throws -> Output {
        // The rules are checked before anything is revoked.
        var preview = try environment.keystore.read()
        // Resolved once: the identity revoked is the one removed, whoever is current by then.
        let uid = preview.currentUID
        let (_, removed) = try AccountRules.unlink(&preview, providerID: providerID.rawValue)
        let revocation = await TokenRevocation(environment: environment).revoke(removed, uid: uid ?? "")
        let user = try await environment.keystore.update { state in
            try AccountRules.unlink(&state, providerID: providerID.rawValue, uid: uid).user
        }
        return Output(user: user, providerID: providerID.rawValue, revocation: revocation)
    }
}
