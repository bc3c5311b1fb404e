/// MCP SEP-2352 in `authctl request` (docs/resources.md, "When the authorization server
/// changes"): a resource that answers 401 may have moved to another authorization server.
extension ResourceRequest {
    /// The move a 401 reveals: the resource's metadata (RFC 9728) — at the URL its challenge
    /// names, else its well-known URLs, read without a token — no longer lists the server that
    /// issued `grant`. Nil when it still lists it (among others), when it cannot be read (the
    /// refresh goes on as before), and for a chained grant (`login URL --via`, renewed by its
    /// chain). Nothing is sent to the server it names: that is the caller's, with the person's consent.
    func serverMove(_ head: HTTPResponseHead, grant: ResourceGrant) async -> ServerMove? {
        guard grant.viaProviderID == nil, let resource = try? ResourceIdentifier(parsing: grant.resource) else { return nil }
        let named = head.header("WWW-Authenticate").flatMap { BearerChallenge.parse($0).first { $0.resourceMetadata != nil } }
        guard
            let metadata = try? await ResourceDiscovery(transport: transport).resourceMetadata(resource, named: named?.resourceMetadata),
            !metadata.authorizationServers.contains(grant.issuer), let now = metadata.authorizationServers.first
        else { return nil }
        return ServerMove(resource: grant.resource, from: grant.issuer, to: now)
    }
}
