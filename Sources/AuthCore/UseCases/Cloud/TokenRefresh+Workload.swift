/// `authctl token` for a workload (docs/ci.md): no refresh token exists, so the
/// client-credentials grant runs again — under the keystore lock, like a refresh, so that
/// one grant serves many concurrent `token` processes. Tokens are kept per scope: the
/// session's own (the workload's `--scope` at login) and `additionalTokens` for others.
extension TokenRefresh {
    func workloadRenewal(_ client: WorkloadClient, of user: User, providerID: String, input: Input) throws
        -> (LinkedIdentity, TokenSet) async throws -> TokenSet
    {
        if input.idToken {
            throw AuthError.invalidArgument(
                "\(Message.subject(user, chosenBy: input.chosenBy)) is a workload (client credentials), which has no ID token. Print its access token with: \(command: .token)"
            )
        }
        let provider = try WorkloadGrant.provider(try configStore.workloadProvider(ProviderID(parsing: providerID)), for: client)
        let grant = WorkloadGrant(tokens: tokens, clock: clock)
        return { identity, current in
            // A DPoP-bound workload proves the key it signed in with, and gets tokens bound to it.
            guard let proof = current.refreshProof else {
                throw AuthError.dpopKeyMissing(
                    "the workload's token",
                    signIn: "Sign the workload in again: \(command: .login, "\(providerID)", .input(client.grantInput, nil))")
            }
            let result = try await grant.run(
                client, provider: provider, scopes: input.scopes, issuer: identity.issuer, proof: proof, binding: identity.binding)
            var renewed = current
            renewed.store(
                accessToken: result.tokens.accessToken ?? "", tokenType: result.tokens.tokenType, expiresAt: result.tokens.expiresAt,
                granted: result.tokens.scopes, for: input.scopes)
            return renewed
        }
    }
}
