/// `authctl reauth PROVIDER`: proves again that the current user holds an identity it
/// already has; fresh tokens and `lastAuthAt` (docs/authctl.1, docs/accounts.md), in the backend the wiring chose
/// (`AccountBackend`).
public struct Reauthenticate: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var source: CredentialSource

        public init(providerID: ProviderID, source: CredentialSource) {
            self.providerID = providerID
            self.source = source
        }
    }

    let backend: any AccountBackend

    public init(backend: any AccountBackend) { self.backend = backend }

    public func run(_ input: Input) async throws -> User {
        if case .pending = input.source {
            throw AuthError.invalidArgument(
                "reauth needs a fresh sign-in, not a pending credential: \(command: .reauthenticate, "\(input.providerID)")")
        }
        return try await backend.reauthenticate(input)
    }
}
