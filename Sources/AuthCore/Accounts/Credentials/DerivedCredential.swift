/// A credential made from one linked identity's token and cached with that identity's
/// tokens (docs/cloud.md): a token from an OAuth 2.0 Token Exchange (RFC 8693), or AWS
/// temporary credentials from STS `AssumeRoleWithWebIdentity`. Kept under
/// `TokenSet.derivedCredentials`, so that it is sealed with the tokens, dropped with them
/// (`signout`, `unlink`, the next sign-in), and never exported.
public struct DerivedCredential: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// An exchanged token (RFC 8693 §2.2.1).
        case exchangedToken(ExchangedToken)
        /// AWS temporary credentials.
        case aws(AWSTemporaryCredentials)
    }

    public var value: Value
    /// When it stops working (the exchanged token's `expires_in` from its issue, STS's
    /// `Expiration`). A credential whose lifetime is unknown is not cached.
    public var expiresAt: Date

    public init(_ value: Value, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }

    /// True while it is valid for `minimumTTL` more seconds after `now`.
    public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
        expiresAt.timeIntervalSince(now) > minimumTTL
    }

    /// The cache key of a derived credential: what it is (`token-exchange`, `aws-sts`) and
    /// every input that makes it differ, form-encoded in a fixed order, so that two requests
    /// that would yield different credentials never share an entry.
    public static func key(_ kind: String, _ inputs: [(String, String?)]) -> String {
        kind + "?" + FormURLEncoding.encode(inputs.compactMap { name, value in value.map { (name, $0) } })
    }
}

/// A token issued by a token exchange (RFC 8693 §2.2.1).
public struct ExchangedToken: Sendable, Equatable {
    /// `access_token`: the issued token, whatever its type.
    public var token: String
    /// `token_type`: `Bearer`, or `N_A` when the issued token is not an access token.
    public var tokenType: String
    /// `issued_token_type`, when the provider said.
    public var issuedTokenType: String?
    /// `scope` as granted, when the provider said.
    public var scopes: [String]?

    public init(token: String, tokenType: String, issuedTokenType: String?, scopes: [String]?) {
        self.token = token
        self.tokenType = tokenType
        self.issuedTokenType = issuedTokenType
        self.scopes = scopes
    }
}

/// AWS temporary security credentials (STS `Credentials`), and the role session they belong to.
public struct AWSTemporaryCredentials: Sendable, Equatable {
    public var accessKeyID: String
    /// A secret: printed only on the stdout of `aws-credentials`, stored only in the keystore.
    public var secretAccessKey: String
    /// A secret, like `secretAccessKey`.
    public var sessionToken: String
    public var expiration: Date
    /// `AssumedRoleUser.Arn`, when STS said.
    public var assumedRoleARN: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String, expiration: Date, assumedRoleARN: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
        self.assumedRoleARN = assumedRoleARN
    }
}

extension TokenSet {
    /// The derived credentials still valid at `now` (with no margin), `entry` set under `key`.
    func derived(setting entry: DerivedCredential, at key: String, now: Date) -> [String: DerivedCredential] {
        var kept = (derivedCredentials ?? [:]).filter { $0.value.isValid(at: now, minimumTTL: 0) }
        kept[key] = entry
        return kept
    }
}
