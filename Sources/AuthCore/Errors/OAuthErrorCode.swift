/// The `error` of an OAuth error response (RFC 6749 §4.1.2.1, §5.2; RFC 8628 §3.5; RFC 9449
/// §8), as a value a caller can compare: `error.oauthError == .invalidGrant`. Any code a
/// provider sends is kept, sanitized and at most 64 characters; the named ones are those
/// authctl acts on.
public struct OAuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = Sanitize.text(rawValue, limit: 64) }

    public var description: String { rawValue }

    /// RFC 6749 §5.2: the grant (a code, a refresh token) is invalid, expired or revoked.
    public static let invalidGrant = Self(rawValue: "invalid_grant")
    /// RFC 6749 §5.2: the client could not be authenticated.
    public static let invalidClient = Self(rawValue: "invalid_client")
    /// RFC 6749 §5.2: the scope asked for is not the client's to ask.
    public static let invalidScope = Self(rawValue: "invalid_scope")
    /// RFC 6749 §4.1.2.1, RFC 8628 §3.5: the person (or the server) said no.
    public static let accessDenied = Self(rawValue: "access_denied")
    /// RFC 8628 §3.5: the person has not finished at the verification page yet.
    public static let authorizationPending = Self(rawValue: "authorization_pending")
    /// RFC 8628 §3.5: poll less often (five more seconds).
    public static let slowDown = Self(rawValue: "slow_down")
    /// RFC 8628 §3.5: the device code expired before the person finished.
    public static let expiredToken = Self(rawValue: "expired_token")
    /// RFC 9449 §8: the server wants a proof carrying the nonce of its `DPoP-Nonce` header.
    public static let useDPoPNonce = Self(rawValue: "use_dpop_nonce")
    /// RFC 9449 §5: the DPoP proof was refused (another key than the grant's, a bad proof).
    public static let invalidDPoPProof = Self(rawValue: "invalid_dpop_proof")
}
