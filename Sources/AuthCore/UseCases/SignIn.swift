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

    let operation: AccountOperation

    public init(accounts: any AccountStore, configStore: ConfigStore, issuer: any CredentialIssuing, events: any AuthEventSink) {
        operation = AccountOperation(accounts: accounts, configStore: configStore, issuer: issuer, events: events)
    }

    public func run(_ input: Input) async throws -> Output {
        try await operation.apply(for: input.providerID, source: input.source, command: .login) { credential, handle in
            let result = try await operation.accounts.signIn(with: credential, pendingHandle: handle)
            return Output(user: result.user, providerID: credential.providerID, isNewUser: result.isNewUser)
        }
    }
}
