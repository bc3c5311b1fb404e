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
    mutating func derivedCredentials() -> [String: KeystoreRecord.DerivedCredential]? {
        var credentials: [String: KeystoreRecord.DerivedCredential] = [:]
        let ok = object { reader, key in
            guard credentials[key] == nil, let credential = KeystoreRecord.DerivedCredential.read(&reader) else { return false }
            credentials[key] = credential
            return true
        }
        return ok ? credentials : nil
    }
}

extension KeystoreRecord.DerivedCredential {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.DerivedCredential? {
        var seen = SeenKeys()
        var kind: String?, expiresAt: Date?, token: String?, tokenType: String?, issuedTokenType: String?, scopes: [String]?
        var accessKeyId: String?, secretAccessKey: String?, sessionToken: String?, assumedRoleArn: String?
        let ok = reader.object { reader, key in
            switch key {
            case "kind": return seen.first(0) && reader.set(&kind, reader.string())
            case "expiresAt": return seen.first(1) && reader.set(&expiresAt, reader.date())
            case "token": return seen.first(2) && reader.set(&token, reader.string())
            case "tokenType": return seen.first(3) && reader.set(&tokenType, reader.string())
            case "issuedTokenType": return seen.first(4) && reader.set(&issuedTokenType, reader.string())
            case "scopes": return seen.first(5) && reader.set(&scopes, reader.strings())
            case "accessKeyId": return seen.first(6) && reader.set(&accessKeyId, reader.string())
            case "secretAccessKey": return seen.first(7) && reader.set(&secretAccessKey, reader.string())
            case "sessionToken": return seen.first(8) && reader.set(&sessionToken, reader.string())
            case "assumedRoleArn": return seen.first(9) && reader.set(&assumedRoleArn, reader.string())
            default: return false
            }
        }
        guard ok, let kind, let expiresAt else { return nil }
        return KeystoreRecord.DerivedCredential(
            kind: kind, expiresAt: expiresAt, token: token, tokenType: tokenType, issuedTokenType: issuedTokenType, scopes: scopes,
            accessKeyId: accessKeyId, secretAccessKey: secretAccessKey, sessionToken: sessionToken, assumedRoleArn: assumedRoleArn)
    }
}
