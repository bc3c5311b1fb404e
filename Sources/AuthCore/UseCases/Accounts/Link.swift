/// `authctl link PROVIDER` and `authctl link --pending HANDLE` (docs/authctl.1, docs/accounts.md), in the backend
/// the wiring chose (`AccountBackend`).
public struct Link: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var source: CredentialSource
        /// `--consent`: agree to link a private-relay identity (docs/apple.md) without being asked.
        public var consent: Bool

        public init(providerID: ProviderID?, source: CredentialSource, consent: Bool = false) {
            self.providerID = providerID
            self.source = source
            self.consent = consent
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
    }

    let backend: any AccountBackend

    public init(backend: any AccountBackend) { self.backend = backend }

    public func run(_ input: Input) async throws -> Output { try await backend.link(input) }
}
