// The records of the keystore as `KeystoreRecordReader` reads them on the token hot path:
// each object through `fields(_:nested:)`, by its table in `KeystoreRecordKeys` (the keys, their
// types, the required ones); here only what makes the record of them, and the nested objects.

extension KeystoreRecord.User {
    /// The record from its JSON object, or nil (then `JSONDecoder` decides).
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.User? {
        var providerData: [KeystoreRecord.Identity]?, backend: KeystoreRecord.Backend?
        var resourceGrants: [KeystoreRecord.ResourceGrant]?
        let fields = reader.fields(KeystoreRecordKeys.user) { reader, key in
            switch key {
            case "providerData": return reader.set(&providerData, reader.array(KeystoreRecord.Identity.read))
            case "backend": return reader.set(&backend, KeystoreRecord.Backend.read(&reader))
            case "resourceGrants": return reader.set(&resourceGrants, reader.array(KeystoreRecord.ResourceGrant.read))
            default: return false
            }
        }
        guard let fields, let uid = fields.string("uid"), let emailVerified = fields.bool("emailVerified"),
            let createdAt = fields.date("createdAt"), let lastSignInAt = fields.date("lastSignInAt"),
            let lastAuthAt = fields.date("lastAuthAt"), let providerData
        else { return nil }
        let kind = fields.string("kind").map(KeystoreRecord.Kind.init(rawValue:))
        guard kind != .some(nil) else { return nil }  // a kind this build does not know
        return KeystoreRecord.User(
            uid: uid, email: fields.string("email"), emailVerified: emailVerified, displayName: fields.string("displayName"),
            photoURL: fields.string("photoURL"), createdAt: createdAt, lastSignInAt: lastSignInAt, lastAuthAt: lastAuthAt,
            lastProviderId: fields.string("lastProviderId"), providerData: providerData, kind: kind ?? nil, backend: backend,
            resourceGrants: resourceGrants)
    }

    /// The record in `data` (one JSON object, nothing after it), or nil.
    static func fastDecoded(_ data: Data) -> KeystoreRecord.User? {
        KeystoreRecordReader.read(data) { read(&$0) }
    }
}

extension KeystoreRecord.Identity {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Identity? {
        var profile: KeystoreRecord.Profile?, tokens: KeystoreRecord.Tokens?, workload: KeystoreRecord.Workload?
        let fields = reader.fields(KeystoreRecordKeys.identity) { reader, key in
            switch key {
            case "profile": return reader.set(&profile, KeystoreRecord.Profile.read(&reader))
            case "tokens": return reader.set(&tokens, KeystoreRecord.Tokens.read(&reader))
            case "workload": return reader.set(&workload, KeystoreRecord.Workload.read(&reader))
            default: return false
            }
        }
        guard let fields, let providerId = fields.string("providerId"), let issuer = fields.string("issuer"),
            let federatedId = fields.string("federatedId"), let profile, let linkedAt = fields.date("linkedAt")
        else { return nil }
        return KeystoreRecord.Identity(
            providerId: providerId, issuer: issuer, federatedId: federatedId, profile: profile, linkedAt: linkedAt, tokens: tokens,
            workload: workload)
    }
}

extension KeystoreRecord.ResourceGrant {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.ResourceGrant? {
        var tokens: KeystoreRecord.Tokens?
        let fields = reader.fields(KeystoreRecordKeys.resourceGrant) { reader, key in
            key == "tokens" && reader.set(&tokens, KeystoreRecord.Tokens.read(&reader))
        }
        guard let fields, let resource = fields.string("resource"), let issuer = fields.string("issuer"),
            let providerId = fields.string("providerId"), let grantedAt = fields.date("grantedAt")
        else { return nil }
        return KeystoreRecord.ResourceGrant(
            resource: resource, issuer: issuer, providerId: providerId, grantedAt: grantedAt, tokens: tokens,
            viaProviderId: fields.string("viaProviderId"), viaTokenType: fields.string("viaTokenType"),
            refreshTokenOf: fields.string("refreshTokenOf"))
    }
}

extension KeystoreRecord.Profile {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Profile? {
        guard let fields = reader.fields(KeystoreRecordKeys.profile), let emailVerified = fields.bool("emailVerified") else {
            return nil
        }
        return KeystoreRecord.Profile(
            email: fields.string("email"), emailVerified: emailVerified, displayName: fields.string("displayName"),
            photoURL: fields.string("photoURL"), isPrivateEmail: fields.bool("isPrivateEmail"))
    }
}

extension KeystoreRecord.Tokens {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Tokens? {
        var additionalTokens: [String: KeystoreRecord.ScopedToken]?, derivedCredentials: [String: KeystoreRecord.DerivedCredential]?
        var egress: KeystoreRecord.Egress?
        let fields = reader.fields(KeystoreRecordKeys.tokens) { reader, key in
            switch key {
            case "additionalTokens": return reader.set(&additionalTokens, reader.scopedTokens())
            case "derivedCredentials": return reader.set(&derivedCredentials, reader.derivedCredentials())
            case "egress": return reader.set(&egress, KeystoreRecord.Egress.read(&reader))
            // `authorizationDetails` (RFC 9396: any JSON) is the decoder's to read.
            default: return false
            }
        }
        guard let fields, let tokenType = fields.string("tokenType"), let scopes = fields.strings("scopes") else { return nil }
        return KeystoreRecord.Tokens(
            accessToken: fields.string("accessToken"), tokenType: tokenType, expiresAt: fields.date("expiresAt"),
            refreshToken: fields.string("refreshToken"), idToken: fields.string("idToken"), scopes: scopes,
            additionalTokens: additionalTokens, needsSignInSince: fields.date("needsSignInSince"), dpopKey: fields.string("dpopKey"),
            sealed: fields.string("sealed"), derivedCredentials: derivedCredentials, egress: egress)
    }
}

extension KeystoreRecord.Egress {
    /// `tokens.egress`: an issuer and origins each in its stored form (`Origin(storedForm:)`).
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Egress? {
        guard let fields = reader.fields(KeystoreRecordKeys.egress), let issuer = fields.string("issuer"),
            let origins = fields.strings("origins"), origins.allSatisfy({ Origin(storedForm: $0) != nil })
        else { return nil }
        return KeystoreRecord.Egress(issuer: issuer, origins: origins)
    }
}

extension KeystoreRecordReader {
    /// `additionalTokens`: scope set → token, no key twice.
    mutating func scopedTokens() -> [String: KeystoreRecord.ScopedToken]? { map(KeystoreRecord.ScopedToken.read) }
}

extension KeystoreRecord.ScopedToken {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.ScopedToken? {
        guard let fields = reader.fields(KeystoreRecordKeys.scopedToken), let accessToken = fields.string("accessToken"),
            let tokenType = fields.string("tokenType"), let scopes = fields.strings("scopes")
        else { return nil }
        return KeystoreRecord.ScopedToken(
            accessToken: accessToken, tokenType: tokenType, expiresAt: fields.date("expiresAt"), scopes: scopes)
    }
}

extension KeystoreRecord.Workload {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Workload? {
        guard let fields = reader.fields(KeystoreRecordKeys.workload), let clientId = fields.string("clientId"),
            let scopes = fields.strings("scopes")
        else { return nil }
        return KeystoreRecord.Workload(
            clientId: clientId, tenant: fields.string("tenant"), scopes: scopes, clientSecretEnv: fields.string("clientSecretEnv"),
            clientSecretFile: fields.string("clientSecretFile"), certificateFile: fields.string("certificateFile"),
            federatedTokenFile: fields.string("federatedTokenFile"), federatedTokenEnv: fields.string("federatedTokenEnv"),
            federatedTokenSource: fields.string("federatedTokenSource"), federatedAudience: fields.string("federatedAudience"),
            assertionAlgorithm: fields.string("assertionAlgorithm"), grant: fields.string("grant"))
    }
}

extension KeystoreRecord.Backend {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Backend? {
        var session: KeystoreRecord.Tokens?
        let fields = reader.fields(KeystoreRecordKeys.backend) { reader, key in
            key == "session" && reader.set(&session, KeystoreRecord.Tokens.read(&reader))
        }
        guard let fields, let kind = fields.string("kind"), let projectId = fields.string("projectId") else { return nil }
        return KeystoreRecord.Backend(
            kind: kind, projectId: projectId, tenantId: fields.string("tenantId"), session: session, emulator: fields.string("emulator"))
    }
}

extension KeystoreSealing {
    /// The top-level `sealing` object, or nil (then `JSONDecoder` decides).
    static func fastDecoded(_ data: Data) -> KeystoreSealing? {
        KeystoreRecordReader.read(data) { reader in
            var kdf: Scrypt?
            let fields = reader.fields(KeystoreRecordKeys.sealing) { reader, key in
                key == "kdf" && reader.set(&kdf, Scrypt.read(&reader))
            }
            guard let fields, let cipher = fields.string("cipher"),
                let keySource = fields.string("keySource").flatMap(KeySource.init(rawValue:)),
                let wrappedKey = fields.string("wrappedKey"), let keyCheck = fields.string("keyCheck")
            else { return nil }
            var sealing = KeystoreSealing(readCipher: cipher, keySource: keySource, wrappedKey: wrappedKey, keyCheck: keyCheck)
            sealing.kdf = kdf
            sealing.keyringItem = fields.string("keyringItem")
            sealing.keyFile = fields.string("keyFile")
            return sealing
        }
    }
}

extension KeystoreSealing {
    /// A sealing as read from a file (the reader's; `init(dataKey:…)` makes a new one).
    init(readCipher cipher: String, keySource: KeySource, wrappedKey: String, keyCheck: String) {
        self.cipher = cipher
        self.keySource = keySource
        self.wrappedKey = wrappedKey
        self.keyCheck = keyCheck
        kdf = nil
        keyringItem = nil
        keyFile = nil
    }
}

extension KeystoreSealing.Scrypt {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreSealing.Scrypt? {
        guard let fields = reader.fields(KeystoreRecordKeys.scrypt), let algorithm = fields.string("algorithm"),
            let salt = fields.string("salt"), let n = fields.integer("n"), let r = fields.integer("r"), let p = fields.integer("p")
        else { return nil }
        return KeystoreSealing.Scrypt(algorithm: algorithm, salt: salt, n: n, r: r, p: p)
    }
}

extension SealedSecrets {
    /// A sealed value's plaintext, or nil (then `JSONDecoder` decides). A pending credential's
    /// (`claims`, `pendingToken`, `bound.pending`) is always left to the decoder: the token
    /// path never opens one.
    static func fastDecoded(_ data: Data) -> SealedSecrets? {
        KeystoreRecordReader.read(data) { reader in
            var seen = SeenKeys()
            var secrets = SealedSecrets()
            let ok = reader.object { reader, key in
                switch key {
                case "accessToken": return seen.first(0) && reader.set(&secrets.accessToken, reader.string())
                case "refreshToken": return seen.first(1) && reader.set(&secrets.refreshToken, reader.string())
                case "idToken": return seen.first(2) && reader.set(&secrets.idToken, reader.string())
                case "additionalTokens": return seen.first(3) && reader.set(&secrets.additionalTokens, reader.scopedTokens())
                case "dpopKey": return seen.first(5) && reader.set(&secrets.dpopKey, reader.string())
                case "derivedCredentials": return seen.first(6) && reader.set(&secrets.derivedCredentials, reader.derivedCredentials())
                case "bound":
                    guard seen.first(4) else { return false }
                    var boundSeen = SeenKeys()
                    var tokens: KeystoreRecord.Tokens?
                    let ok = reader.object { reader, key in
                        guard key == "tokens", boundSeen.first(0) else { return false }
                        return reader.set(&tokens, KeystoreRecord.Tokens.read(&reader))
                    }
                    guard ok else { return false }
                    secrets.bound = Bound(tokens: tokens, pending: nil)
                    return true
                default: return false
                }
            }
            return ok ? secrets : nil
        }
    }
}

extension Data {
    /// `text` as UTF-8, copied from the string's own storage: `Data(text.utf8)` goes through
    /// `Data`'s generic initialiser, whose dynamic cast (`as? ContiguousBytes`) searches the
    /// binary's protocol conformances on the token hot path (issue 24).
    init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}
