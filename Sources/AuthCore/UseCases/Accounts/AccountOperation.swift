/// What `login`, `link` and `reauth` share: finding the provider and obtaining the credential.
struct AccountOperation: Sendable {
    let accounts: any CredentialAccountStore
    let configStore: ConfigStore
    let issuer: any CredentialIssuing
    let events: any AuthEventSink

    /// The credential, handed to `apply` with the pending handle it came from (if it did);
    /// what `apply` returns. A browser that waits for the sign-in's page gets it once `apply`
    /// is done, so that it says "Signed in" only when the account rules let it be.
    ///
    /// The warnings of the provider's profile API go to `events` as soon as the credential
    /// is there, before it is applied.
    ///
    /// - Parameter precheck: run on the accounts before any flow starts, so that a
    ///   refusal that needs no sign-in (nobody signed in, provider already linked) comes
    ///   before the browser opens.
    func apply<T: Sendable>(
        for providerID: ProviderID?, source: CredentialSource, command: Message.Verb,
        precheck: (AccountState) throws -> Void = { _ in }, apply: (Credential, String?) async throws -> T
    ) async throws -> T {
        // An unsafe or corrupt keystore fails before the browser opens.
        let state = try accounts.accounts()
        if case .pending(let handle) = source {
            let pending = try accounts.pendingCredential(handle)
            if let providerID, providerID.rawValue != pending.credential.providerID {
                throw AuthError.invalidArgument(
                    "the pending credential \(handle) is for \(pending.credential.providerID), not \(providerID). Run: \(command: command, .input(command == .login ? .credential : .pending, handle))"
                )
            }
            try precheck(state)
            return try await apply(pending.credential, handle)
        }
        guard let providerID else {
            throw AuthError.invalidArgument("name the provider: \(command: command, "PROVIDER") (see \(command: .providersList))")
        }
        var provider = try configStore.identityProvider(providerID)
        if case .interactive(let options) = source { provider = try configStore.identityProvider(providerID, for: options) }
        try precheck(state)
        return try await issuer.credential(from: source, provider: provider) { credential in
            for warning in credential.profileWarnings { events.report(.profileIncomplete(warning)) }
            return try await apply(credential, nil)
        }
    }
}
