#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `login`, `link` and `reauth` share: finding the provider and obtaining the credential.
struct AccountOperation: Sendable {
    let environment: AuthEnvironment

    /// The credential to apply, and the pending handle it came from (if it did).
    ///
    /// - Parameter precheck: run on the keystore before any flow starts, so that a
    ///   refusal that needs no sign-in (nobody signed in, provider already linked) comes
    ///   before the browser opens.
    func credential(
        for providerID: ProviderID?, source: CredentialSource, command: String,
        precheck: (AccountState) throws -> Void = { _ in }
    ) async throws -> (Credential, String?) {
        // An unsafe or corrupt keystore fails before the browser opens.
        let state = try environment.keystore.read()
        if case .pending(let handle) = source {
            let pending = try AccountRules.pendingCredential(handle, in: state, now: environment.clock.now())
            if let providerID, providerID.rawValue != pending.credential.providerID {
                throw AuthError.invalidArgument(
                    "the pending credential \(handle) is for \(pending.credential.providerID), not \(providerID). Run: authctl \(command) --\(command == "login" ? "credential" : "pending") \(handle)"
                )
            }
            try precheck(state)
            return (pending.credential, handle)
        }
        guard let providerID else {
            throw AuthError.invalidArgument("name the provider: authctl \(command) PROVIDER (see authctl providers list)")
        }
        var provider = try environment.provider(providerID)
        if case .interactive(let options) = source { provider = try environment.provider(providerID, for: options) }
        try precheck(state)
        return (try await CredentialIssuance(environment: environment).credential(from: source, provider: provider), nil)
    }
}

extension AuthEnvironment {
    /// The time, a fresh uid and a fresh pending handle, drawn for one account operation.
    func accountContext() -> AccountRules.Context {
        AccountRules.Context(now: clock.now(), newUID: mintUID(), newHandle: "pc_" + random.base64URL(bytes: 15))
    }
}
