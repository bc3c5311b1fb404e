extension KeystoreRecord {
    /// `tokens.derivedCredentials[KEY]` (docs/keystore.md): an exchanged token
    /// (`kind: token-exchange`) or AWS temporary credentials (`kind: aws-sts`). Each kind
    /// has its own fields; an unknown kind, or one without its fields, is dropped on reading
    /// (it is a cache: the credential is made again).
    struct DerivedCredential: Codable, Equatable {
        var kind: String
        var expiresAt: Date
        // token-exchange
        var token: String? = nil
        var tokenType: String? = nil
        var issuedTokenType: String? = nil
        var scopes: [String]? = nil
        // aws-sts
        var accessKeyId: String? = nil
        var secretAccessKey: String? = nil
        var sessionToken: String? = nil
        var assumedRoleArn: String? = nil

        static let tokenExchange = "token-exchange"
        static let awsSTS = "aws-sts"
    }
}

extension KeystoreRecord.DerivedCredential {
    init(_ credential: AuthCore.DerivedCredential) {
        switch credential.value {
        case .exchangedToken(let exchanged):
            self.init(
                kind: Self.tokenExchange, expiresAt: credential.expiresAt, token: exchanged.token, tokenType: exchanged.tokenType,
                issuedTokenType: exchanged.issuedTokenType, scopes: exchanged.scopes)
        case .aws(let aws):
            self.init(
                kind: Self.awsSTS, expiresAt: credential.expiresAt, accessKeyId: aws.accessKeyID, secretAccessKey: aws.secretAccessKey,
                sessionToken: aws.sessionToken, assumedRoleArn: aws.assumedRoleARN)
        }
    }

    /// The domain's credential; nil for a kind this build does not know, or one that lacks its fields.
    var domain: AuthCore.DerivedCredential? {
        switch kind {
        case Self.tokenExchange:
            guard let token, let tokenType else { return nil }
            return AuthCore.DerivedCredential(
                .exchangedToken(ExchangedToken(token: token, tokenType: tokenType, issuedTokenType: issuedTokenType, scopes: scopes)),
                expiresAt: expiresAt)
        case Self.awsSTS:
            guard let accessKeyId, let secretAccessKey, let sessionToken else { return nil }
            return AuthCore.DerivedCredential(
                .aws(
                    AWSTemporaryCredentials(
                        accessKeyID: accessKeyId, secretAccessKey: secretAccessKey, sessionToken: sessionToken, expiration: expiresAt,
                        assumedRoleARN: assumedRoleArn)),
                expiresAt: expiresAt)
        default:
            return nil
        }
    }
}

extension KeystoreRecordReader {
    /// `derivedCredentials`: key → credential, no key twice (the token hot path's reader).
    mutating func derivedCredentials() -> [String: KeystoreRecord.DerivedCredential]? { map(KeystoreRecord.DerivedCredential.read) }
}

extension KeystoreRecord.DerivedCredential {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.DerivedCredential? {
        guard let fields = reader.fields(KeystoreRecordKeys.derivedCredential), let kind = fields.string("kind"),
            let expiresAt = fields.date("expiresAt")
        else { return nil }
        return KeystoreRecord.DerivedCredential(
            kind: kind, expiresAt: expiresAt, token: fields.string("token"), tokenType: fields.string("tokenType"),
            issuedTokenType: fields.string("issuedTokenType"), scopes: fields.strings("scopes"), accessKeyId: fields.string("accessKeyId"),
            secretAccessKey: fields.string("secretAccessKey"), sessionToken: fields.string("sessionToken"),
            assumedRoleArn: fields.string("assumedRoleArn"))
    }
}
