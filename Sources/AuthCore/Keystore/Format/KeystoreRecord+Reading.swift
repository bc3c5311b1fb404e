// The records of the keystore as `KeystoreRecordReader` reads them on the token hot path.

extension KeystoreRecord.User {
    /// The record from its JSON object, or nil (then `JSONDecoder` decides).
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.User? {
        var seen = SeenKeys()
        var uid: String?, email: String?, emailVerified: Bool?, displayName: String?, photoURL: String?
        var createdAt: Date?, lastSignInAt: Date?, lastAuthAt: Date?, lastProviderId: String?
        var providerData: [KeystoreRecord.Identity]?, kind: KeystoreRecord.Kind?, backend: KeystoreRecord.Backend?
        var resourceGrants: [KeystoreRecord.ResourceGrant]?
        let ok = reader.object { reader, key in
            switch key {
            case "uid": return seen.first(0) && reader.set(&uid, reader.string())
            case "email": return seen.first(1) && reader.set(&email, reader.string())
            case "emailVerified": return seen.first(2) && reader.set(&emailVerified, reader.bool())
            case "displayName": return seen.first(3) && reader.set(&displayName, reader.string())
            case "photoURL": return seen.first(4) && reader.set(&photoURL, reader.string())
            case "createdAt": return seen.first(5) && reader.set(&createdAt, reader.date())
            case "lastSignInAt": return seen.first(6) && reader.set(&lastSignInAt, reader.date())
            case "lastAuthAt": return seen.first(7) && reader.set(&lastAuthAt, reader.date())
            case "lastProviderId": return seen.first(8) && reader.set(&lastProviderId, reader.string())
            case "providerData":
                return seen.first(9) && reader.set(&providerData, reader.array(KeystoreRecord.Identity.read))
            case "kind":
                guard seen.first(10), let raw = reader.string() else { return false }
                switch raw {
                case "person": kind = .person
                case "workload": kind = .workload
                default: return false
                }
                return true
            case "backend": return seen.first(11) && reader.set(&backend, KeystoreRecord.Backend.read(&reader))
            case "resourceGrants":
                return seen.first(12) && reader.set(&resourceGrants, reader.array(KeystoreRecord.ResourceGrant.read))
            default: return false
            }
        }
        guard ok, let uid, let emailVerified, let createdAt, let lastSignInAt, let lastAuthAt, let providerData else { return nil }
        return KeystoreRecord.User(
            uid: uid, email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL, createdAt: createdAt,
            lastSignInAt: lastSignInAt, lastAuthAt: lastAuthAt, lastProviderId: lastProviderId, providerData: providerData, kind: kind,
            backend: backend, resourceGrants: resourceGrants)
    }

    /// The record in `data` (one JSON object, nothing after it), or nil.
    static func fastDecoded(_ data: Data) -> KeystoreRecord.User? {
        KeystoreRecordReader.read(data) { read(&$0) }
    }
}

extension KeystoreRecordReader {
    /// `[ element, … ]`, each read by `element`.
    mutating func array<T>(_ element: (inout KeystoreRecordReader) -> T?) -> [T]? {
        guard take(Self.openBracket) else { return nil }
        var values: [T] = []
        if take(Self.closeBracket) { return values }
        while true {
            guard values.count < Self.maximumCount, let value = element(&self) else { return nil }
            values.append(value)
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? values : nil
        }
    }
}

extension KeystoreRecord.Identity {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Identity? {
        var seen = SeenKeys()
        var providerId: String?, issuer: String?, federatedId: String?, profile: KeystoreRecord.Profile?, linkedAt: Date?
        var tokens: KeystoreRecord.Tokens?, workload: KeystoreRecord.Workload?
        let ok = reader.object { reader, key in
            switch key {
            case "providerId": return seen.first(0) && reader.set(&providerId, reader.string())
            case "issuer": return seen.first(1) && reader.set(&issuer, reader.string())
            case "federatedId": return seen.first(2) && reader.set(&federatedId, reader.string())
            case "profile": return seen.first(3) && reader.set(&profile, KeystoreRecord.Profile.read(&reader))
            case "linkedAt": return seen.first(4) && reader.set(&linkedAt, reader.date())
            case "tokens": return seen.first(5) && reader.set(&tokens, KeystoreRecord.Tokens.read(&reader))
            case "workload": return seen.first(6) && reader.set(&workload, KeystoreRecord.Workload.read(&reader))
            default: return false
            }
        }
        guard ok, let providerId, let issuer, let federatedId, let profile, let linkedAt else { return nil }
        return KeystoreRecord.Identity(
            providerId: providerId, issuer: issuer, federatedId: federatedId, profile: profile, linkedAt: linkedAt, tokens: tokens,
            workload: workload)
    }
}

extension KeystoreRecord.ResourceGrant {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.ResourceGrant? {
        var seen = SeenKeys()
        var resource: String?, issuer: String?, providerId: String?, grantedAt: Date?, tokens: KeystoreRecord.Tokens?
        var viaProviderId: String?, viaTokenType: String?
        let ok = reader.object { reader, key in
            switch key {
            case "resource": return seen.first(0) && reader.set(&resource, reader.string())
            case "issuer": return seen.first(1) && reader.set(&issuer, reader.string())
            case "providerId": return seen.first(2) && reader.set(&providerId, reader.string())
            case "grantedAt": return seen.first(3) && reader.set(&grantedAt, reader.date())
            case "tokens": return seen.first(4) && reader.set(&tokens, KeystoreRecord.Tokens.read(&reader))
            case "viaProviderId": return seen.first(5) && reader.set(&viaProviderId, reader.string())
            case "viaTokenType": return seen.first(6) && reader.set(&viaTokenType, reader.string())
            default: return false
            }
        }
        guard ok, let resource, let issuer, let providerId, let grantedAt else { return nil }
        return KeystoreRecord.ResourceGrant(
            resource: resource, issuer: issuer, providerId: providerId, grantedAt: grantedAt, tokens: tokens, viaProviderId: viaProviderId,
            viaTokenType: viaTokenType)
    }
}

extension KeystoreRecord.Profile {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Profile? {
        var seen = SeenKeys()
        var email: String?, emailVerified: Bool?, displayName: String?, photoURL: String?, isPrivateEmail: Bool?
        let ok = reader.object { reader, key in
            switch key {
            case "email": return seen.first(0) && reader.set(&email, reader.string())
            case "emailVerified": return seen.first(1) && reader.set(&emailVerified, reader.bool())
            case "displayName": return seen.first(2) && reader.set(&displayName, reader.string())
            case "photoURL": return seen.first(3) && reader.set(&photoURL, reader.string())
            case "isPrivateEmail": return seen.first(4) && reader.set(&isPrivateEmail, reader.bool())
            default: return false
            }
        }
        guard ok, let emailVerified else { return nil }
        return KeystoreRecord.Profile(
            email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL, isPrivateEmail: isPrivateEmail)
    }
}

extension KeystoreRecord.Tokens {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Tokens? {
        var seen = SeenKeys()
        var accessToken: String?, tokenType: String?, expiresAt: Date?, refreshToken: String?, idToken: String?
        var scopes: [String]?, additionalTokens: [String: KeystoreRecord.ScopedToken]?, needsSignInSince: Date?, sealed: String?
        var dpopKey: String?, derivedCredentials: [String: KeystoreRecord.DerivedCredential]?, egress: KeystoreRecord.Egress?
        let ok = reader.object { reader, key in
            switch key {
            case "accessToken": return seen.first(0) && reader.set(&accessToken, reader.string())
            case "tokenType": return seen.first(1) && reader.set(&tokenType, reader.string())
            case "expiresAt": return seen.first(2) && reader.set(&expiresAt, reader.date())
            case "refreshToken": return seen.first(3) && reader.set(&refreshToken, reader.string())
            case "idToken": return seen.first(4) && reader.set(&idToken, reader.string())
            case "scopes": return seen.first(5) && reader.set(&scopes, reader.strings())
            case "additionalTokens": return seen.first(6) && reader.set(&additionalTokens, reader.scopedTokens())
            case "needsSignInSince": return seen.first(7) && reader.set(&needsSignInSince, reader.date())
            case "sealed": return seen.first(8) && reader.set(&sealed, reader.string())
            case "dpopKey": return seen.first(9) && reader.set(&dpopKey, reader.string())
            case "derivedCredentials": return seen.first(10) && reader.set(&derivedCredentials, reader.derivedCredentials())
            case "egress": return seen.first(11) && reader.set(&egress, KeystoreRecord.Egress.read(&reader))
            default: return false
            }
        }
        guard ok, let tokenType, let scopes else { return nil }
        return KeystoreRecord.Tokens(
            accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, refreshToken: refreshToken, idToken: idToken,
            scopes: scopes, additionalTokens: additionalTokens, needsSignInSince: needsSignInSince, dpopKey: dpopKey, sealed: sealed,
            derivedCredentials: derivedCredentials, egress: egress)
    }
}

extension KeystoreRecord.Egress {
    /// `tokens.egress`: an issuer and origins each in its stored form (`Origin(storedForm:)`).
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Egress? {
        var seen = SeenKeys()
        var issuer: String?, origins: [String]?
        let ok = reader.object { reader, key in
            switch key {
            case "issuer": return seen.first(0) && reader.set(&issuer, reader.string())
            case "origins": return seen.first(1) && reader.set(&origins, reader.strings())
            default: return false
            }
        }
        guard ok, let issuer, let origins, origins.allSatisfy({ Origin(storedForm: $0) != nil }) else { return nil }
        return KeystoreRecord.Egress(issuer: issuer, origins: origins)
    }
}

extension KeystoreRecordReader {
    /// `additionalTokens`: scope set → token, no key twice.
    mutating func scopedTokens() -> [String: KeystoreRecord.ScopedToken]? {
        var tokens: [String: KeystoreRecord.ScopedToken] = [:]
        let ok = object { reader, key in
            guard tokens[key] == nil, let token = KeystoreRecord.ScopedToken.read(&reader) else { return false }
            tokens[key] = token
            return true
        }
        return ok ? tokens : nil
    }
}

extension KeystoreRecord.ScopedToken {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.ScopedToken? {
        var seen = SeenKeys()
        var accessToken: String?, tokenType: String?, expiresAt: Date?, scopes: [String]?
        let ok = reader.object { reader, key in
            switch key {
            case "accessToken": return seen.first(0) && reader.set(&accessToken, reader.string())
            case "tokenType": return seen.first(1) && reader.set(&tokenType, reader.string())
            case "expiresAt": return seen.first(2) && reader.set(&expiresAt, reader.date())
            case "scopes": return seen.first(3) && reader.set(&scopes, reader.strings())
            default: return false
            }
        }
        guard ok, let accessToken, let tokenType, let scopes else { return nil }
        return KeystoreRecord.ScopedToken(accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, scopes: scopes)
    }
}

extension KeystoreRecord.Workload {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Workload? {
        var seen = SeenKeys()
        var clientId: String?, tenant: String?, scopes: [String]?, clientSecretEnv: String?, clientSecretFile: String?
        var certificateFile: String?, federatedTokenFile: String?, federatedTokenEnv: String?, federatedTokenSource: String?
        var federatedAudience: String?, assertionAlgorithm: String?, grant: String?
        let ok = reader.object { reader, key in
            switch key {
            case "clientId": return seen.first(0) && reader.set(&clientId, reader.string())
            case "tenant": return seen.first(1) && reader.set(&tenant, reader.string())
            case "scopes": return seen.first(2) && reader.set(&scopes, reader.strings())
            case "clientSecretEnv": return seen.first(3) && reader.set(&clientSecretEnv, reader.string())
            case "clientSecretFile": return seen.first(4) && reader.set(&clientSecretFile, reader.string())
            case "certificateFile": return seen.first(5) && reader.set(&certificateFile, reader.string())
            case "federatedTokenFile": return seen.first(6) && reader.set(&federatedTokenFile, reader.string())
            case "federatedTokenEnv": return seen.first(7) && reader.set(&federatedTokenEnv, reader.string())
            case "federatedTokenSource": return seen.first(8) && reader.set(&federatedTokenSource, reader.string())
            case "federatedAudience": return seen.first(9) && reader.set(&federatedAudience, reader.string())
            case "assertionAlgorithm": return seen.first(10) && reader.set(&assertionAlgorithm, reader.string())
            case "grant": return seen.first(11) && reader.set(&grant, reader.string())
            default: return false
            }
        }
        guard ok, let clientId, let scopes else { return nil }
        return KeystoreRecord.Workload(
            clientId: clientId, tenant: tenant, scopes: scopes, clientSecretEnv: clientSecretEnv, clientSecretFile: clientSecretFile,
            certificateFile: certificateFile, federatedTokenFile: federatedTokenFile, federatedTokenEnv: federatedTokenEnv,
            federatedTokenSource: federatedTokenSource, federatedAudience: federatedAudience, assertionAlgorithm: assertionAlgorithm,
            grant: grant)
    }
}

extension KeystoreRecord.Backend {
    static func read(_ reader: inout KeystoreRecordReader) -> KeystoreRecord.Backend? {
        var seen = SeenKeys()
        var kind: String?, projectId: String?, tenantId: String?, session: KeystoreRecord.Tokens?, emulator: String?
        let ok = reader.object { reader, key in
            switch key {
            case "kind": return seen.first(0) && reader.set(&kind, reader.string())
            case "projectId": return seen.first(1) && reader.set(&projectId, reader.string())
            case "tenantId": return seen.first(2) && reader.set(&tenantId, reader.string())
            case "session": return seen.first(3) && reader.set(&session, KeystoreRecord.Tokens.read(&reader))
            case "emulator": return seen.first(4) && reader.set(&emulator, reader.string())
            default: return false
            }
        }
        guard ok, let kind, let projectId else { return nil }
        return KeystoreRecord.Backend(kind: kind, projectId: projectId, tenantId: tenantId, session: session, emulator: emulator)
    }
}

extension KeystoreSealing {
    /// The top-level `sealing` object, or nil (then `JSONDecoder` decides).
    static func fastDecoded(_ data: Data) -> KeystoreSealing? {
        KeystoreRecordReader.read(data) { reader in
            var seen = SeenKeys()
            var cipher: String?, keySource: KeySource?, wrappedKey: String?, keyCheck: String?, kdf: Scrypt?
            var keyringItem: String?, keyFile: String?
            let ok = reader.object { reader, key in
                switch key {
                case "cipher": return seen.first(0) && reader.set(&cipher, reader.string())
                case "keySource":
                    guard seen.first(1), let raw = reader.string() else { return false }
                    switch raw {
                    case "keyFile": keySource = .keyFile
                    case "passphrase": keySource = .passphrase
                    case "keyring": keySource = .keyring
                    default: return false
                    }
                    return true
                case "wrappedKey": return seen.first(2) && reader.set(&wrappedKey, reader.string())
                case "keyCheck": return seen.first(3) && reader.set(&keyCheck, reader.string())
                case "kdf": return seen.first(4) && reader.set(&kdf, Scrypt.read(&reader))
                case "keyringItem": return seen.first(5) && reader.set(&keyringItem, reader.string())
                case "keyFile": return seen.first(6) && reader.set(&keyFile, reader.string())
                default: return false
                }
            }
            guard ok, let cipher, let keySource, let wrappedKey, let keyCheck else { return nil }
            var sealing = KeystoreSealing(readCipher: cipher, keySource: keySource, wrappedKey: wrappedKey, keyCheck: keyCheck)
            sealing.kdf = kdf
            sealing.keyringItem = keyringItem
            sealing.keyFile = keyFile
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
        var seen = SeenKeys()
        var algorithm: String?, salt: String?, n: Int?, r: Int?, p: Int?
        let ok = reader.object { reader, key in
            switch key {
            case "algorithm": return seen.first(0) && reader.set(&algorithm, reader.string())
            case "salt": return seen.first(1) && reader.set(&salt, reader.string())
            case "n": return seen.first(2) && reader.set(&n, reader.integer())
            case "r": return seen.first(3) && reader.set(&r, reader.integer())
            case "p": return seen.first(4) && reader.set(&p, reader.integer())
            default: return false
            }
        }
        guard ok, let algorithm, let salt, let n, let r, let p else { return nil }
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
