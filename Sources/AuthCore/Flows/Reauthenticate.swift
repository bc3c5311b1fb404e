#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `authctl reauth PROVIDER`: proves again that the current user holds an identity it
/// already has; fresh tokens and `lastAuthAt` (SPEC §2, §5).
public struct Reauthenticate: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var source: CredentialSource

        public init(providerID: ProviderID, source: CredentialSource) {
            self.providerID = providerID
            self.source = source
        }
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> User {
        if case .pending = input.source {
            throw AuthError.invalidArgument("reauth needs a fresh sign-in, not a pending credential: authctl reauth \(input.providerID)")
        }
        let providerID = input.providerID
        // The user is the one current when the command starts, whoever is current once the
        // sign-in is done (another process may run `users use` meanwhile).
        var uid: String?
        let (credential, _) = try await AccountOperation(environment: environment).credential(
            for: providerID, source: input.source, command: "reauth"
        ) { state in
            try AccountRules.checkCanReauthenticate(state, providerID: providerID.rawValue)
            uid = state.currentUID
        }
        guard let uid else { throw AuthError.noCurrentUser }
        let now = environment.clock.now()
        return try await environment.keystore.update { state in
            try AccountRules.reauthenticate(&state, with: credential, now: now, uid: uid)
        }
    }
}
