extension TokenRevocation {
    /// Revokes a resource grant's refresh token (or its access token) at the server that
    /// issued it (docs/resources.md), with the grant's own client, and only when that client
    /// still names the grant's issuer.
    func revoke(_ grant: ResourceGrant, uid: String) async -> Result? {
        guard grant.tokens != nil else { return nil }
        if let config = try? configStore.provider(ProviderID(parsing: grant.providerID)), config.issuer != grant.issuer {
            return Result(
                uid: uid, providerID: grant.providerID, result: .failed,
                message: "the configuration of \(grant.providerID) now leads to another issuer than the one of \(grant.resource)")
        }
        let identity = LinkedIdentity(
            providerID: grant.providerID, issuer: grant.issuer, federatedID: grant.resource, profile: Profile(), linkedAt: grant.grantedAt,
            tokens: grant.tokens)
        return await revoke(identity, uid: uid)
    }
}
