#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `authctl login`: a credential (browser sign-in, ID token, or pending credential), then
/// the account rules of SPEC §5.
public struct SignIn: Sendable {
    public struct Input: Sendable {
        /// Required, except with a pending credential (which names its own provider).
        public var providerID: ProviderID?
        public var source: CredentialSource

        public init(providerID: ProviderID?, source: CredentialSource) {
            self.providerID = providerID
            self.source = source
        }

        public init(providerID: ProviderID, options: FlowOptions) {
            self.init(providerID: providerID, source: .interactive(options))
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
        public var isNewUser: Bool
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> Output {
        let (credential, handle) = try await AccountOperation(environment: environment).credential(
            for: input.providerID, source: input.source, command: "login")
        let context = environment.accountContext()
        let outcome = try await environment.keystore.update { state in
            if let handle { _ = try AccountRules.pendingCredential(handle, in: state, now: context.now) }
            return AccountRules.signIn(&state, with: credential, context: context, pendingHandle: handle)
        }
        let result = try outcome.get()
        return Output(user: result.user, providerID: credential.providerID, isNewUser: result.isNewUser)
    }
}
