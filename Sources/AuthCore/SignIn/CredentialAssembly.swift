/// The end of every sign-in flow: the tokens and the provider's profile made into a
/// `Credential` (the ID token of a grant validated by the token client, an ID token alone here).
struct CredentialAssembly: Sendable {
    /// For the provider's profile API (Microsoft Graph), and the ID token's keys.
    let transport: any HTTPTransport
    let clock: any Clock
    let metadata: ProviderMetadata

    /// The credential of a grant's tokens, whose ID token the token client validated.
    func credential(
        _ issued: TokenClient.Issued, provider: any IdentityProvider, askedScopes: [String], askedDetails: AuthorizationDetails? = nil,
        callbackFields: [String: String] = [:], resource: URL? = nil
    ) async throws -> Credential {
        let tokens = issued.response
        if let resource, tokens.idToken == nil || issued.idTokenClaims == nil {
            return try resourceOnly(issued, provider: provider, askedScopes: askedScopes, resource: resource)
        }
        guard let idToken = tokens.idToken, let claims = issued.idTokenClaims else {
            throw AuthError.invalidCredential("\(provider.id) returned no ID token. Check that the app may use the 'openid' scope")
        }
        let now = clock.now()
        var tokenSet = TokenSet(
            accessToken: tokens.accessToken, tokenType: tokens.tokenType,
            expiresAt: tokens.expiresIn.map { now.addingTimeInterval($0) }, refreshToken: tokens.refreshToken,
            idToken: idToken, scopes: tokens.scopes ?? askedScopes)
        tokenSet.proofKey = issued.proofKey
        tokenSet.authorizationDetails = tokens.authorizationDetails ?? askedDetails
        // Bound to where they were obtained, under the validated issuer (Microsoft: the tenant's).
        tokenSet.egress = issued.binding.map { SecretBinding(issuer: claims.issuer, origins: $0.origins) }
        // The identity is keyed by the validated `iss` (for most providers the configured
        // issuer; for Microsoft the token's tenant issuer).
        let federatedID = try provider.federatedID(from: claims)
        let (profile, warnings) = await provider.enrichedProfile(
            provider.profile(from: claims, callbackFields: callbackFields), tokens: tokenSet, transport: transport)
        var credential = Credential(
            providerID: provider.id.rawValue, issuer: claims.issuer, federatedID: federatedID, profile: profile, tokens: tokenSet,
            claims: claims)
        credential.profileWarnings = warnings
        credential.resource = resource
        return credential
    }

    /// A resource's plain OAuth 2.0 grant (docs/resources.md): tokens and no identity.
    func resourceOnly(_ issued: TokenClient.Issued, provider: any IdentityProvider, askedScopes: [String], resource: URL) throws
        -> Credential
    {
        let tokens = issued.response
        var tokenSet = TokenSet(
            accessToken: tokens.accessToken, tokenType: tokens.tokenType,
            expiresAt: tokens.expiresIn.map { clock.now().addingTimeInterval($0) }, refreshToken: tokens.refreshToken, idToken: nil,
            scopes: tokens.scopes ?? askedScopes)
        tokenSet.proofKey = issued.proofKey
        tokenSet.authorizationDetails = tokens.authorizationDetails
        tokenSet.egress = issued.binding
        var credential = Credential(
            providerID: provider.id.rawValue, issuer: provider.issuer, federatedID: "", profile: Profile(), tokens: tokenSet,
            claims: IDTokenClaims(raw: [:]))
        credential.resource = resource
        credential.hasIdentity = false
        return credential
    }
}

extension CredentialAssembly {
    /// A credential of an ID token alone — the implicit flow, or one obtained elsewhere
    /// (`--id-token -`): the same validation as the code flow (signature from the provider's
    /// JWKS, issuer, audience = the client id, expiry, the nonce when there is one), and no
    /// access or refresh token.
    func idTokenOnly(
        _ idToken: String, provider: any IdentityProvider, discovery: DiscoveryDocument, clientID: String, nonce: String?,
        callbackFields: [String: String] = [:]
    ) async throws -> Credential {
        let claims = try await IDTokenVerification(clock: clock, metadata: metadata)
            .validate(idToken, provider: provider, discovery: discovery, clientID: clientID, nonce: nonce)
        return Credential(
            providerID: provider.id.rawValue, issuer: claims.issuer, federatedID: try provider.federatedID(from: claims),
            profile: provider.profile(from: claims, callbackFields: callbackFields),
            tokens: TokenSet(accessToken: nil, expiresAt: nil, refreshToken: nil, idToken: idToken, scopes: []), claims: claims)
    }
}

extension CredentialAssembly {
    /// The credential a sign-in session asked for.
    func credential(_ making: SignInSession.CredentialMaking, provider: any IdentityProvider) async throws -> Credential {
        switch making.source {
        case .tokens(let issued, let askedScopes):
            return try await credential(
                issued, provider: provider, askedScopes: askedScopes, askedDetails: making.authorizationDetails,
                callbackFields: making.callbackFields, resource: making.resource)
        case .idToken(let idToken):
            return try await idTokenOnly(
                idToken, provider: provider, discovery: making.discovery, clientID: making.clientID, nonce: making.nonce,
                callbackFields: making.callbackFields)
        }
    }
}
