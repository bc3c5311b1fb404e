/// Validates an ID token against a provider's keys, refetching the JWKS once when its
/// `kid` is unknown (key rotation).
struct IDTokenVerification: Sendable {
    let clock: any Clock
    let metadata: ProviderMetadata

    func validate(_ token: String, provider: any IDTokenRules, discovery: DiscoveryDocument, clientID: String, nonce: String?)
        async throws -> IDTokenClaims
    {
        let keys = try await metadata.keys(for: discovery)
        let algorithms = Set(discovery.idTokenSigningAlgValuesSupported ?? ["RS256"])
        // Rule 2's expected issuer is the provider's to say (Microsoft: the `{tenantid}`
        // template filled with the token's `tid`); the comparison itself stays exact.
        let unverified = IDTokenClaims(raw: IDTokenClaims.unverifiedParts(of: token)?.payload ?? [:])
        let expectations = IDTokenExpectations(
            issuer: provider.expectedIDTokenIssuer(discoveryIssuer: discovery.issuer, claims: unverified), clientID: clientID,
            nonce: nonce, allowedAlgorithms: algorithms, now: clock.now())
        let metadata = self.metadata
        let claims = try await IDTokenValidator().validate(token, expectations: expectations, keys: keys) {
            try await metadata.keys(for: discovery, forceRefresh: true)
        }
        // Only a token that passed every check meets the provider's own rules (Microsoft's
        // tenant rules), so that a forged token is `invalid-credential`, never a tenant mismatch.
        try provider.checkAccount(claims, discoveryIssuer: discovery.issuer)
        return claims
    }
}
