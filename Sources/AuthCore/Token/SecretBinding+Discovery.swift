extension SecretBinding {
    /// The binding of secrets obtained now from a provider whose metadata was fetched and
    /// checked: every endpoint of `discovery` that takes a secret, and `also` (a resource,
    /// Microsoft Graph, a registration's client URI).
    public init(issuer: String, discovery: DiscoveryDocument, also: [URL?] = []) {
        let endpoints: [URL?] =
            [
                discovery.tokenEndpoint, discovery.revocationEndpoint, discovery.introspectionEndpoint, discovery.userinfoEndpoint,
                discovery.pushedAuthorizationRequestEndpoint, discovery.deviceAuthorizationEndpoint,
            ] + also
        self.init(issuer: issuer, origins: endpoints.compactMap { $0.flatMap(Origin.init) })
    }
}
