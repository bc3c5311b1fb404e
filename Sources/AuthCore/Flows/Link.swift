import Foundation

/// `authctl link PROVIDER` and `authctl link --pending HANDLE` (SPEC §2, §5).
public struct Link: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var source: CredentialSource

        public init(providerID: ProviderID?, source: CredentialSource) {
            self.providerID = providerID
            self.source = source
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> Output {
        let providerID = input.providerID
        let (credential, handle) = try await AccountOperation(environment: environment).credential(
            for: providerID, source: input.source, command: "link"
        ) { state in
            if let providerID { try AccountRules.checkCanLink(state, providerID: providerID.rawValue) }
        }
        let context = environment.accountContext()
        let outcome = try await environment.keystore.update { state in
            if let handle { _ = try AccountRules.pendingCredential(handle, in: state, now: context.now) }
            return try AccountRules.link(&state, with: credential, context: context, pendingHandle: handle)
        }
        return Output(user: try outcome.get(), providerID: credential.providerID)
    }
}
