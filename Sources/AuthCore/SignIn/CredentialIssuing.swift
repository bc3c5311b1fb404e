/// The port through which `login`, `link` and `reauth` obtain the credential of an
/// interactive sign-in or of an ID token obtained elsewhere: the browser flow, `--manual`,
/// the device flow, `--id-token` (docs/authctl.1, docs/sign-in.md). The use cases know nothing of browsers,
/// listeners or terminals; a test gives them a credential directly.
public protocol CredentialIssuing: Sendable {
    /// A validated credential for `provider` from `source` (never `.pending`, which the
    /// account store holds).
    func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential

    /// The credential, handed to `apply` (the account rules) before a waiting browser gets
    /// its page: the page says "Signed in" only once `apply` has succeeded (docs/sign-in.md step 8).
    func credential<T: Sendable>(
        from source: CredentialSource, provider: any IdentityProvider, then apply: (Credential) async throws -> T
    ) async throws -> T
}

extension CredentialIssuing {
    /// No browser waits (a test's issuer): the credential, then `apply`.
    public func credential<T: Sendable>(
        from source: CredentialSource, provider: any IdentityProvider, then apply: (Credential) async throws -> T
    ) async throws -> T {
        try await apply(try await credential(from: source, provider: provider))
    }
}

extension CredentialIssuance: CredentialIssuing {}
