/// `authctl login`: a credential (browser sign-in, ID token, or pending credential), then
/// the account rules of docs/accounts.md, in the backend the wiring chose (`AccountBackend`).
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

    let backend: any AccountBackend

    public init(backend: any AccountBackend) { self.backend = backend }

    public func run(_ input: Input) async throws -> Output { try await backend.signIn(input) }
}
