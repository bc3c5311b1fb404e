extension SecretBinding {
    /// The binding of secrets obtained now from a provider whose metadata was fetched and
    /// checked: every endpoint of `discovery` that takes a secret, and `also` (a resource,
    /// Microsoft Graph, a registration's client URI).
    public init(issuer: String, discovery: DiscoveryDocument, also: [URL?] = []) {
        let endpoints: [URL?] =
            [
                discovery.tokenEndpoint, discovery.revocationEndpoint, discovery.introspectionEndpoint, discovery.userinfoEndpoint,
                discovery.pushedAuthorizationRequestEndpoint, discovery.deviceAuthorizationEndpoint,
                discovery.backchannelAuthenticationEndpoint,
            ] + also
        self.init(issuer: issuer, origins: endpoints.compactMap { $0.flatMap(Origin.init) })
    }

    /// Where a refresh of `identity` may send its refresh token: the binding recorded when the
    /// tokens were obtained; for tokens stored by earlier builds, which recorded none, the
    /// endpoints of the issuer's own discovery document — once, and kept with the refreshed
    /// tokens (docs/security.md, "Secrets are bound where they were obtained").
    ///
    /// That document is trusted as the sign-in trusted it only when nothing in the
    /// configuration could have chosen it: no `metadataUrl`, and its `issuer` (which the
    /// metadata cache has checked against the configured issuer) exactly the identity's. Else
    /// the tokens stay bound to the origin of their issuer (`SecretBinding.legacy`), and an
    /// endpoint elsewhere is refused until a new sign-in records it.
    static func refreshing(
        _ identity: LinkedIdentity, current: TokenSet, provider: any IdentityProvider, discovery: DiscoveryDocument
    ) -> SecretBinding {
        if let recorded = current.egress { return recorded }
        guard provider.config.metadataURL == nil, discovery.issuer == identity.issuer else { return identity.binding }
        return TokenClient.binding(for: provider, discovery: discovery, issuer: identity.issuer)
    }
}
