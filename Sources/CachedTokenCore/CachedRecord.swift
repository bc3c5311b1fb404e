// The current user's record as the token front reads it: the keys of `KeystoreRecordKeys`
// (the one table of the record's keys, which KeystoreRecordKeysTests holds to `KeystoreRecord`'s
// CodingKeys and docs/keystore.schema.json), the same value readers and required members as
// AuthCore's `KeystoreRecord.User.read` (KeystoreRecord+Reading.swift), so that a record the
// front takes is one the core's reader takes, with the same values. It keeps only what
// `token`, `git-credential` and `status` show (a refresh token's presence, never its value),
// and refuses (nil: the front hands the command to the full program) every
// member the table says the front does not answer for: a Firebase `backend`, a `workload`,
// derived credentials, a DPoP key, and any key it does not know. A sealed value (`sealed`) is
// kept, for CachedSealing.swift to open; other scopes' tokens are checked, not kept.

/// `KeystoreRecord.Tokens` without what the front hands over.
public struct CachedTokens: Equatable {
    public var accessToken: String?
    public var tokenType: String
    public var expiresAt: Double?
    /// Whether there is a refresh token (read and checked, never kept: the front does not use it).
    public var hasRefreshToken = false
    public var idToken: String?
    public var scopes: [String]
    public var needsSignInSince: Double?
    /// The sealed value, its base64 decoded (nonce ‖ ciphertext ‖ tag).
    public var sealed: [UInt8]?
    /// Whether `additionalTokens` (other scopes' tokens, which the front never prints) is there.
    public var additionalTokens = false
    /// `egress`, as read (the issuer, then the origins): readable, compared with the sealed
    /// `bound` like the other readable fields; the front sends nothing, so it only checks it.
    public var egress: [String]? = nil

    /// The readable part alone (`KeystoreRecord.Tokens.readable`): no secret, nothing sealed.
    public var readable: CachedTokens {
        CachedTokens(tokenType: tokenType, expiresAt: expiresAt, scopes: scopes, needsSignInSince: needsSignInSince, egress: egress)
    }

    /// `isShaped(sealed:)`: in a sealed keystore every secret under `sealed` and nothing beside
    /// it, in a plaintext one nothing sealed.
    public func isShaped(sealed isSealed: Bool) -> Bool {
        guard isSealed else { return sealed == nil }
        guard let sealed else { return false }
        var expected = readable
        expected.sealed = sealed
        return self == expected
    }
}

public struct CachedIdentity {
    public var providerId: String
    public var issuer: String
    public var federatedId: String
    public var tokens: CachedTokens?
    /// The profile's `email` (git-credential's username).
    public var email: String? = nil
    /// The profile's `displayName` (`status`).
    public var displayName: String? = nil
}

/// `KeystoreRecord.ResourceGrant`: what `token --resource` answers from.
public struct CachedGrant {
    public var resource: String
    /// `grantedAt`, in seconds since 1970: the newest of two grants for one resource wins.
    public var grantedAt: Double
    public var tokens: CachedTokens?
    /// `issuer`, `providerId` and `viaProviderId` (what `status` shows of a grant).
    public var issuer = ""
    public var providerId = ""
    public var viaProviderId: String? = nil
    /// `refreshTokenOf`: the grant whose refresh token renews this one (one sign-in for several).
    public var refreshTokenOf: String? = nil
}

public struct CachedUser {
    public var uid: String
    public var lastProviderId: String?
    public var providerData: [CachedIdentity]
    /// `email` (git-credential's username when the identity's profile has none).
    public var email: String? = nil
    /// `resourceGrants` (`login URL`), in the record's order.
    public var resourceGrants: [CachedGrant] = []
    /// What `status` shows besides (`CachedStatusAnswer`): dates in seconds since 1970.
    public var profile = Profile()
    /// Whether the keystore it was read from is sealed (set by its reader, not by the record).
    public var fromSealedKeystore = false

    public struct Profile: Equatable {
        public var emailVerified = false
        public var displayName: String?
        public var photoURL: String?
        public var createdAt: Double = 0
        public var lastSignInAt: Double = 0
        public var lastAuthAt: Double = 0
        public init() {}
    }

    public static func read(_ reader: inout KeystoreRecordReader) -> CachedUser? {
        var seen = SeenKeys()
        var uid: String?, lastProviderId: String?, providerData: [CachedIdentity]?, email: String?, grants: [CachedGrant]?
        var profile = Profile()
        let keys = KeystoreRecordKeys.user
        let ok = reader.object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            switch index {  // the table's order
            case 0: return reader.set(&uid, reader.string())  // uid
            case 1: return reader.set(&email, reader.string())  // email
            case 2: return reader.take(&profile.emailVerified, reader.bool())  // emailVerified
            case 3: return reader.set(&profile.displayName, reader.string())  // displayName
            case 4: return reader.set(&profile.photoURL, reader.string())  // photoURL
            case 5: return reader.take(&profile.createdAt, reader.seconds())  // createdAt
            case 6: return reader.take(&profile.lastSignInAt, reader.seconds())  // lastSignInAt
            case 7: return reader.take(&profile.lastAuthAt, reader.seconds())  // lastAuthAt
            case 8: return reader.set(&lastProviderId, reader.string())  // lastProviderId
            case 9: return reader.set(&providerData, reader.cachedIdentities())  // providerData
            case 10: return reader.string() == "person"  // kind
            case 12: return reader.set(&grants, reader.cachedResourceGrants())  // resourceGrants
            default: return reader.checks(keys[index].value)
            }
        }
        guard ok, KeystoreRecordKeys.hasRequired(keys, seen), let uid, let providerData else { return nil }
        var user = CachedUser(
            uid: uid, lastProviderId: lastProviderId, providerData: providerData, email: email, resourceGrants: grants ?? [])
        user.profile = profile
        return user
    }
}

extension KeystoreRecordReader {
    /// Stores `value` in `target`, which has a default; false when there is none.
    func take<T>(_ target: inout T, _ value: T?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }

    /// A value of the table's type read and dropped (a string, a bool, a date, strings).
    mutating func checks(_ value: KeystoreRecordKeys.Value) -> Bool {
        switch value {
        case .string: return string() != nil
        case .bool: return bool() != nil
        case .date: return seconds() != nil
        case .strings: return strings() != nil
        case .integer: return integer() != nil
        case .object, .objects, .objectMap: return false
        }
    }

    /// `providerData`: `[ identity, … ]`.
    mutating func cachedIdentities() -> [CachedIdentity]? {
        guard take(Self.openBracket) else { return nil }
        var values: [CachedIdentity] = []
        if take(Self.closeBracket) { return values }
        while true {
            guard values.count < Self.maximumCount, let value = cachedIdentity() else { return nil }
            values.append(value)
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? values : nil
        }
    }

    mutating func cachedIdentity() -> CachedIdentity? {
        var seen = SeenKeys()
        var providerId: String?, issuer: String?, federatedId: String?, tokens: CachedTokens?, email: String?, name: String?
        let keys = KeystoreRecordKeys.identity
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            switch index {  // the table's order
            case 0: return reader.set(&providerId, reader.string())  // providerId
            case 1: return reader.set(&issuer, reader.string())  // issuer
            case 2: return reader.set(&federatedId, reader.string())  // federatedId
            case 3: return reader.checksProfile(email: &email, displayName: &name)  // profile
            case 5: return reader.set(&tokens, reader.cachedTokens())  // tokens
            default: return reader.checks(keys[index].value)
            }
        }
        guard ok, KeystoreRecordKeys.hasRequired(keys, seen), let providerId, let issuer, let federatedId else {
            return nil
        }
        return CachedIdentity(
            providerId: providerId, issuer: issuer, federatedId: federatedId, tokens: tokens, email: email, displayName: name)
    }

    /// `resourceGrants`: `[ grant, … ]`, each read as the core reads it (its tokens as an
    /// identity's, with the same keys the front answers for).
    mutating func cachedResourceGrants() -> [CachedGrant]? {
        guard take(Self.openBracket) else { return nil }
        var grants: [CachedGrant] = []
        if take(Self.closeBracket) { return grants }
        let keys = KeystoreRecordKeys.resourceGrant
        while true {
            var seen = SeenKeys()
            var resource: String?, grantedAt: Double?, tokens: CachedTokens?, issuer = "", providerId = "", via: String?
            var holder: String?
            let ok = object { reader, key in
                guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
                switch index {  // the table's order
                case 0: return reader.set(&resource, reader.string())  // resource
                case 1: return reader.take(&issuer, reader.string())  // issuer
                case 2: return reader.take(&providerId, reader.string())  // providerId
                case 3: return reader.set(&grantedAt, reader.seconds())  // grantedAt
                case 4: return reader.set(&tokens, reader.cachedTokens())  // tokens
                case 5: return reader.set(&via, reader.string())  // viaProviderId
                case 7: return reader.set(&holder, reader.string())  // refreshTokenOf
                default: return reader.checks(keys[index].value)
                }
            }
            guard grants.count < Self.maximumCount, ok, KeystoreRecordKeys.hasRequired(keys, seen), let resource, let grantedAt else {
                return nil
            }
            grants.append(
                CachedGrant(
                    resource: resource, grantedAt: grantedAt, tokens: tokens, issuer: issuer, providerId: providerId, viaProviderId: via,
                    refreshTokenOf: holder))
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? grants : nil
        }
    }

    /// An identity's profile, checked as the core reads it; its `email` and `displayName` kept,
    /// the rest dropped.
    mutating func checksProfile(email: inout String?, displayName: inout String?) -> Bool {
        var seen = SeenKeys()
        var found: String?, name: String?
        let keys = KeystoreRecordKeys.profile
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            if index == 0 { return reader.set(&found, reader.string()) }  // email
            if index == 2 { return reader.set(&name, reader.string()) }  // displayName
            return reader.checks(keys[index].value)
        }
        email = found
        displayName = name
        return ok && KeystoreRecordKeys.hasRequired(keys, seen)
    }

    public mutating func cachedTokens() -> CachedTokens? {
        var seen = SeenKeys()
        var accessToken: String?, tokenType: String?, expiresAt: Double?, hasRefreshToken = false, idToken: String?, scopes: [String]?
        var needsSignInSince: Double?, sealed: [UInt8]?, additionalTokens = false, egress: [String]?
        let keys = KeystoreRecordKeys.tokens
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            switch index {  // the table's order
            case 0: return reader.set(&accessToken, reader.string())  // accessToken
            case 1: return reader.set(&tokenType, reader.string())  // tokenType
            case 2: return reader.set(&expiresAt, reader.seconds())  // expiresAt
            case 3:  // refreshToken
                hasRefreshToken = true
                return reader.checksString()
            case 4: return reader.set(&idToken, reader.string())  // idToken
            case 5: return reader.set(&scopes, reader.strings())  // scopes
            case 7: return reader.set(&needsSignInSince, reader.seconds())  // needsSignInSince
            case 8: return reader.set(&sealed, reader.base64())  // sealed
            case 6:  // additionalTokens
                additionalTokens = true
                return reader.checksScopedTokens()
            case 11: return reader.set(&egress, reader.cachedEgress())  // egress
            default: return false
            }
        }
        guard ok, KeystoreRecordKeys.hasRequired(keys, seen), let tokenType, let scopes else { return nil }
        return CachedTokens(
            accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, hasRefreshToken: hasRefreshToken, idToken: idToken,
            scopes: scopes, needsSignInSince: needsSignInSince, sealed: sealed, additionalTokens: additionalTokens, egress: egress)
    }

    /// `KeystoreRecord.Egress.read`'s members (an issuer and origins, no other key); the
    /// origins' form is the full program's to judge when it sends, so the front keeps them as text.
    mutating func cachedEgress() -> [String]? {
        var seen = SeenKeys()
        var issuer: String?, origins: [String]?
        let keys = KeystoreRecordKeys.egress
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            return index == 0 ? reader.set(&issuer, reader.string()) : reader.set(&origins, reader.strings())
        }
        guard ok, let issuer, let origins else { return nil }
        return [issuer] + origins
    }

    /// `additionalTokens` checked as the core reads it (`scopedTokens`: no key twice, each a
    /// `ScopedToken`), and dropped.
    mutating func checksScopedTokens() -> Bool {
        var names: [String] = []
        let keys = KeystoreRecordKeys.scopedToken
        return object { reader, name in
            guard !names.contains(name) else { return false }
            names.append(name)
            var seen = SeenKeys()
            let ok = reader.object { reader, key in
                guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
                return reader.checks(keys[index].value)
            }
            return ok && KeystoreRecordKeys.hasRequired(keys, seen)
        }
    }
}
