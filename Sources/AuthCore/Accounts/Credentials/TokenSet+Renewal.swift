extension TokenSet {
    /// Stores a newly issued access token where `scopes` say: with none, as the session's
    /// own (`granted`, else the session's scopes as they were); with scopes, in
    /// `additionalTokens` under their key (`granted`, else those scopes), the session's own
    /// access token staying as it was. A refresh and a workload's new grant both store here.
    public mutating func store(
        accessToken: String, tokenType: String, expiresAt: Date?, granted: [String]?, for scopes: [String]
    ) {
        if scopes.isEmpty {
            self.accessToken = accessToken
            self.tokenType = tokenType
            self.expiresAt = expiresAt
            self.scopes = granted ?? self.scopes
        } else {
            var additional = additionalTokens ?? [:]
            additional[Self.scopeKey(scopes)] = ScopedAccessToken(
                accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, scopes: granted ?? scopes)
            additionalTokens = additional
        }
    }
}
