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

    let operation: AccountOperation

    public init(accounts: any AccountStore, configStore: ConfigStore, issuer: any CredentialIssuing, events: any AuthEventSink) {
        operation = AccountOperation(accounts: accounts, configStore: configStore, issuer: issuer, events: events)
    }

    public func run(_ input: Input) async throws -> User {
        if case .pending = input.source {
            throw AuthError.invalidArgument(
                "reauth needs a fresh sign-in, not a pending credential: \(command: .reauthenticate, "\(input.providerID)")")
        }
        let providerID = input.providerID
        // The user is the one current when the command starts, whoever is current once the
        // sign-in is done (another process may run `users use` meanwhile).
        var uid: String?
        return try await operation.apply(
            for: providerID, source: input.source, command: .reauthenticate,
            precheck: { state in
                try AccountRules.checkCanReauthenticate(state, providerID: providerID.rawValue)
                uid = state.currentUID
            }
        ) { credential, _ in
            guard let resolved = uid else { throw AuthError.noCurrentUser }
            return try await operation.accounts.reauthenticate(user: resolved, with: credential)
        }
    }
}
