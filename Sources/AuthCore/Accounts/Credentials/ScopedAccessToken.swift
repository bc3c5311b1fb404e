/// An access token for scopes other than the session's, obtained with the refresh token.
public struct ScopedAccessToken: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var expiresAt: Date?
    /// The scopes granted (or asked, when the provider did not say).
    public var scopes: [String]

    public init(accessToken: String, tokenType: String = "Bearer", expiresAt: Date?, scopes: [String]) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scopes = scopes
    }

    public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
        TokenSet.isValid(expiresAt: expiresAt, at: now, minimumTTL: minimumTTL)
    }
}
