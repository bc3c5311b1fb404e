// Apart from IDTokenExpiryReader.swift, which the token front (Sources/authctl-front) compiles
// too: this part needs AuthCore's `IDTokenClaims`.

extension IDTokenClaims {
    /// `exp` of `token`, unverified: what `unverifiedParts(of:)`'s payload says, read by
    /// `IDTokenExpiryReader` when it can (the token hot path), else by the full reading.
    static func unverifiedExpiry(of token: String) -> Date? {
        if let known = IDTokenExpiryReader.expiry(of: token) { return known }
        return unverifiedParts(of: token).flatMap { IDTokenClaims(raw: $0.payload).expiresAt }
    }
}
