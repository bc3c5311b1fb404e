/// The tokens one linked identity holds in the session (docs/accounts.md).
public struct TokenSet: Sendable, Equatable {
    /// Absent after a sign-in with an ID token obtained elsewhere (`login --id-token -`).
    public var accessToken: String?
    public var tokenType: String
    /// When the access token expires; nil when the provider did not say.
    public var expiresAt: Date?
    public var refreshToken: String?
    public var idToken: String?
    /// The scopes granted (or asked, when the provider did not say).
    public var scopes: [String]
    /// Access tokens for other scopes (`authctl token --scope`; Microsoft: other resources),
    /// obtained with the refresh token and keyed by `TokenSet.scopeKey` of the scopes asked.
    /// Nil when there are none (absent from the keystore file).
    public var additionalTokens: [String: ScopedAccessToken]?
    /// Credentials made from these tokens — exchanged tokens (RFC 8693), AWS STS credentials —
    /// keyed by `DerivedCredential.key` (docs/cloud.md). Nil when there are none.
    public var derivedCredentials: [String: DerivedCredential]?
    /// True when the keystore is sealed and was read without its key (`status`, `users
    /// list`): the tokens exist but none is here, only their type, expiry and scopes.
    public var isSealed = false
    /// When the provider refused the refresh token (`invalid_grant`): the session has ended
    /// and only a new sign-in gives tokens again. Nil while the session is good, and after
    /// every sign-in or refresh that succeeds.
    public var needsSignInSince: Date?
    /// The DPoP key proved when the tokens were issued (RFC 9449): every refresh proves it, and
    /// when `tokenType` is `DPoP` every use of the access token needs a proof made by it. A
    /// secret: sealed with the tokens, never exported or printed. Nil when none was proved.
    public var proofKey: DPoPKey?
    /// The rich authorization granted (RFC 9396), as the provider said or as asked.
    public var authorizationDetails: AuthorizationDetails?
    /// Where these tokens (and the DPoP key) may be sent: recorded when they were obtained,
    /// kept through every refresh (docs/security.md). Nil for tokens stored before authctl
    /// recorded it: `binding(issuer:)` then binds them to their issuer's origin.
    public var egress: SecretBinding?

    /// Whether the access token is bound to a DPoP key and useless without a proof.
    public var isDPoPBound: Bool { CachedTokenAnswer.isDPoP(tokenType) }

    public init(
        accessToken: String?, tokenType: String = "Bearer", expiresAt: Date?, refreshToken: String?, idToken: String?, scopes: [String],
        additionalTokens: [String: ScopedAccessToken]? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scopes = scopes
        self.additionalTokens = additionalTokens
    }

    /// Where these tokens may go: the recorded binding, or for tokens stored before one was
    /// recorded, the origin of `issuer` (and `also`: a resource grant's resource).
    public func binding(issuer: String, also: [URL] = []) -> SecretBinding {
        egress ?? .legacy(issuer: issuer, also: also)
    }

    /// The key of a scope set in `additionalTokens`: the distinct scopes, sorted, joined by
    /// a space (`https://graph.microsoft.com/.default`).
    public static func scopeKey(_ scopes: [String]) -> String {
        Set(scopes.filter { !$0.isEmpty }).sorted().joined(separator: " ")
    }

    /// True when the access token is still valid `minimumTTL` seconds from `now`. A token
    /// whose lifetime is unknown counts as valid (nothing better can be known offline).
    public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
        Self.isValid(expiresAt: expiresAt, at: now, minimumTTL: minimumTTL)
    }

    static func isValid(expiresAt: Date?, at now: Date, minimumTTL: TimeInterval) -> Bool {
        // The cached-token core's rule, which the token front answers by too.
        CachedTokenAnswer.isValid(
            expiresAt?.timeIntervalSinceReferenceDate, minimumTTL: minimumTTL, now: now.timeIntervalSinceReferenceDate)
    }
}
