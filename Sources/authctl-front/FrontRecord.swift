// The current user's record as the front reads it: the same keys, the same value readers
// (`KeystoreRecordReader`, shared with AuthCore) and the same required members as
// AuthCore's `KeystoreRecord.User.read` (KeystoreRecord+Reading.swift), so that a record the
// front takes is one the core's reader takes, with the same values. It keeps only what
// `token` needs, and refuses (nil: the front hands the command to the full program) every
// member the front does not answer for: a Firebase `backend`, a `workload`, derived
// credentials, a DPoP key, a resource grant, and any key it does not know. A sealed value
// (`sealed`) is kept, for FrontSealed.swift to open; other scopes' tokens are checked, not kept.

/// `KeystoreRecord.Tokens` without what the front hands over.
struct FrontTokens: Equatable {
    var accessToken: String?
    var tokenType: String
    var expiresAt: Date?
    var refreshToken: String?
    var idToken: String?
    var scopes: [String]
    var needsSignInSince: Date?
    /// The sealed value, its base64 decoded (nonce ‖ ciphertext ‖ tag).
    var sealed: [UInt8]?
    /// Whether `additionalTokens` (other scopes' tokens, which the front never prints) is there.
    var additionalTokens = false
    /// `egress`, as read (the issuer, then the origins): readable, compared with the sealed
    /// `bound` like the other readable fields; the front sends nothing, so it only checks it.
    var egress: [String]? = nil

    /// The readable part alone (`KeystoreRecord.Tokens.readable`): no secret, nothing sealed.
    var readable: FrontTokens {
        FrontTokens(tokenType: tokenType, expiresAt: expiresAt, scopes: scopes, needsSignInSince: needsSignInSince, egress: egress)
    }

    /// `isShaped(sealed:)`: in a sealed keystore every secret under `sealed` and nothing beside
    /// it, in a plaintext one nothing sealed.
    func isShaped(sealed isSealed: Bool) -> Bool {
        guard isSealed else { return sealed == nil }
        guard let sealed else { return false }
        var expected = readable
        expected.sealed = sealed
        return self == expected
    }
}

struct FrontIdentity {
    var providerId: String
    var issuer: String
    var federatedId: String
    var tokens: FrontTokens?
}

struct FrontUser {
    var uid: String
    var lastProviderId: String?
    var providerData: [FrontIdentity]

    static func read(_ reader: inout KeystoreRecordReader) -> FrontUser? {
        var seen = SeenKeys()
        var uid: String?, emailVerified: Bool?, createdAt: Date?, lastSignInAt: Date?, lastAuthAt: Date?
        var lastProviderId: String?, providerData: [FrontIdentity]?
        let ok = reader.object { reader, key in
            switch key {
            case "uid": return seen.first(0) && reader.set(&uid, reader.string())
            case "email": return seen.first(1) && reader.string() != nil
            case "emailVerified": return seen.first(2) && reader.set(&emailVerified, reader.bool())
            case "displayName": return seen.first(3) && reader.string() != nil
            case "photoURL": return seen.first(4) && reader.string() != nil
            case "createdAt": return seen.first(5) && reader.set(&createdAt, reader.date())
            case "lastSignInAt": return seen.first(6) && reader.set(&lastSignInAt, reader.date())
            case "lastAuthAt": return seen.first(7) && reader.set(&lastAuthAt, reader.date())
            case "lastProviderId": return seen.first(8) && reader.set(&lastProviderId, reader.string())
            case "providerData": return seen.first(9) && reader.set(&providerData, reader.identities())
            case "kind": return seen.first(10) && reader.string() == "person"
            default: return false
            }
        }
        guard ok, let uid, emailVerified != nil, createdAt != nil, lastSignInAt != nil, lastAuthAt != nil, let providerData else {
            return nil
        }
        return FrontUser(uid: uid, lastProviderId: lastProviderId, providerData: providerData)
    }
}

extension KeystoreRecordReader {
    /// Stores `value` in `target`; false when there is none.
    func set<T>(_ target: inout T?, _ value: T?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }

    /// `providerData`: `[ identity, … ]`.
    mutating func identities() -> [FrontIdentity]? {
        guard take(Self.openBracket) else { return nil }
        var values: [FrontIdentity] = []
        if take(Self.closeBracket) { return values }
        while true {
            guard values.count < Self.maximumCount, let value = identity() else { return nil }
            values.append(value)
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? values : nil
        }
    }

    mutating func identity() -> FrontIdentity? {
        var seen = SeenKeys()
        var providerId: String?, issuer: String?, federatedId: String?, profile = false, linkedAt: Date?
        var tokens: FrontTokens?
        let ok = object { reader, key in
            switch key {
            case "providerId": return seen.first(0) && reader.set(&providerId, reader.string())
            case "issuer": return seen.first(1) && reader.set(&issuer, reader.string())
            case "federatedId": return seen.first(2) && reader.set(&federatedId, reader.string())
            case "profile":
                guard seen.first(3), reader.profile() else { return false }
                profile = true
                return true
            case "linkedAt": return seen.first(4) && reader.set(&linkedAt, reader.date())
            case "tokens": return seen.first(5) && reader.set(&tokens, reader.tokens())
            default: return false
            }
        }
        guard ok, let providerId, let issuer, let federatedId, profile, linkedAt != nil else { return nil }
        return FrontIdentity(providerId: providerId, issuer: issuer, federatedId: federatedId, tokens: tokens)
    }

    /// An identity's profile, checked as the core reads it, and dropped.
    mutating func profile() -> Bool {
        var seen = SeenKeys()
        var emailVerified: Bool?
        let ok = object { reader, key in
            switch key {
            case "email": return seen.first(0) && reader.string() != nil
            case "emailVerified": return seen.first(1) && reader.set(&emailVerified, reader.bool())
            case "displayName": return seen.first(2) && reader.string() != nil
            case "photoURL": return seen.first(3) && reader.string() != nil
            case "isPrivateEmail": return seen.first(4) && reader.bool() != nil
            default: return false
            }
        }
        return ok && emailVerified != nil
    }

    mutating func tokens() -> FrontTokens? {
        var seen = SeenKeys()
        var accessToken: String?, tokenType: String?, expiresAt: Date?, refreshToken: String?, idToken: String?, scopes: [String]?
        var needsSignInSince: Date?, sealed: [UInt8]?, additionalTokens = false, egress: [String]?
        let ok = object { reader, key in
            switch key {
            case "accessToken": return seen.first(0) && reader.set(&accessToken, reader.string())
            case "tokenType": return seen.first(1) && reader.set(&tokenType, reader.string())
            case "expiresAt": return seen.first(2) && reader.set(&expiresAt, reader.date())
            case "refreshToken": return seen.first(3) && reader.set(&refreshToken, reader.string())
            case "idToken": return seen.first(4) && reader.set(&idToken, reader.string())
            case "scopes": return seen.first(5) && reader.set(&scopes, reader.strings())
            case "needsSignInSince": return seen.first(7) && reader.set(&needsSignInSince, reader.date())
            case "sealed": return seen.first(8) && reader.set(&sealed, reader.base64())
            case "additionalTokens":
                guard seen.first(6), reader.scopedTokens() else { return false }
                additionalTokens = true
                return true
            case "egress": return seen.first(11) && reader.set(&egress, reader.egress())
            default: return false  // dpopKey, derivedCredentials: the full program's
            }
        }
        guard ok, let tokenType, let scopes else { return nil }
        return FrontTokens(
            accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, refreshToken: refreshToken, idToken: idToken,
            scopes: scopes, needsSignInSince: needsSignInSince, sealed: sealed, additionalTokens: additionalTokens, egress: egress)
    }

    /// `KeystoreRecord.Egress.read`'s members (an issuer and origins, no other key); the
    /// origins' form is the full program's to judge when it sends, so the front keeps them as text.
    mutating func egress() -> [String]? {
        var seen = SeenKeys()
        var issuer: String?, origins: [String]?
        let ok = object { reader, key in
            switch key {
            case "issuer": return seen.first(0) && reader.set(&issuer, reader.string())
            case "origins": return seen.first(1) && reader.set(&origins, reader.strings())
            default: return false
            }
        }
        guard ok, let issuer, let origins else { return nil }
        return [issuer] + origins
    }

    /// `additionalTokens` checked as the core reads it (`scopedTokens`: no key twice, each a
    /// `ScopedToken`), and dropped.
    mutating func scopedTokens() -> Bool {
        var keys: [String] = []
        return object { reader, key in
            guard !keys.contains(key) else { return false }
            keys.append(key)
            var seen = SeenKeys()
            var accessToken = false, tokenType = false, scopes = false
            let ok = reader.object { reader, key in
                switch key {
                case "accessToken":
                    accessToken = true
                    return seen.first(0) && reader.string() != nil
                case "tokenType":
                    tokenType = true
                    return seen.first(1) && reader.string() != nil
                case "expiresAt": return seen.first(2) && reader.date() != nil
                case "scopes":
                    scopes = true
                    return seen.first(3) && reader.strings() != nil
                default: return false
                }
            }
            return ok && accessToken && tokenType && scopes
        }
    }
}
