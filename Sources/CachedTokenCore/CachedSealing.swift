// A keystore sealed with a key file (docs/keystore.md) as the token front reads it, as AuthCore
// reads it (KeystoreSealing.swift, KeystoreSealedRecords.swift): the top-level `sealing` of a
// key file's keystore, a sealed value's secrets (`SealedSecrets.fastDecoded`'s rules) and the
// readable fields they were bound to. The AES-256-GCM itself and the key file's reading are
// the front's (Sources/authctl-front/FrontSealed.swift).

/// The top-level `sealing` of a keystore sealed with a key file.
public struct CachedSealing {
    public var wrappedKey: String
    public var keyCheck: String
    public var keyFile: String?
}

extension KeystoreRecordReader {
    /// `KeystoreSealing.fastDecoded`'s reading; nil unless its key source is a key file.
    public mutating func cachedSealing() -> CachedSealing? {
        var seen = SeenKeys()
        var cipher: String?, keySource: String?, wrappedKey: String?, keyCheck: String?, keyFile: String?
        let keys = KeystoreRecordKeys.sealing
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.take(key, in: keys, seen: &seen) else { return false }
            switch index {  // the table's order
            case 0: return reader.set(&cipher, reader.string())  // cipher
            case 1: return reader.set(&keySource, reader.string())  // keySource
            case 2: return reader.set(&wrappedKey, reader.string())  // wrappedKey
            case 3: return reader.set(&keyCheck, reader.string())  // keyCheck
            case 6: return reader.set(&keyFile, reader.string())  // keyFile
            default: return reader.checks(keys[index].value)
            }
        }
        guard ok, cipher == "AES-256-GCM", keySource == "keyFile", let wrappedKey, let keyCheck else { return nil }
        return CachedSealing(wrappedKey: wrappedKey, keyCheck: keyCheck, keyFile: keyFile)
    }

    /// `SealedSecrets.fastDecoded`: the access, refresh and ID tokens, and the readable tokens
    /// they were bound to (`bound.tokens`); nil for anything else.
    mutating func cachedSecrets() -> (accessToken: String?, idToken: String?, bound: CachedTokens??)? {
        var seen = SeenKeys()
        var accessToken: String?, idToken: String?, bound: CachedTokens??
        let ok = object { reader, key in
            switch key {
            case "accessToken": return seen.first(0) && reader.set(&accessToken, reader.string())
            case "refreshToken": return seen.first(1) && reader.skipsString()
            case "idToken": return seen.first(2) && reader.set(&idToken, reader.string())
            case "additionalTokens": return seen.first(3) && reader.checksScopedTokens()
            case "bound":
                guard seen.first(4) else { return false }
                var boundSeen = SeenKeys()
                var tokens: CachedTokens?
                let ok = reader.object { reader, key in
                    guard key == "tokens", boundSeen.first(0) else { return false }
                    return reader.set(&tokens, reader.cachedTokens())
                }
                guard ok else { return false }
                bound = .some(tokens)
                return true
            default: return false  // dpopKey, derivedCredentials, claims, pendingToken
            }
        }
        guard ok else { return nil }
        return (accessToken, idToken, bound)
    }
}

extension KeystoreRecordReader {
    /// `string() != nil` for a secret the front does not keep (the refresh token): a string of
    /// plain ASCII is checked where it lies, and no copy of it is made (a String's storage
    /// cannot be wiped); any other string is read by `string()`, which then decides.
    mutating func skipsString() -> Bool {
        let start = position
        guard take(Self.quote) else { return false }
        let first = position
        while position < bytes.count, position - first <= Self.maximumString {
            let byte = bytes[position]
            if byte == Self.quote {
                position += 1
                return true
            }
            guard byte >= 0x20, byte != Self.backslash, byte < 0x80 else { break }
            position += 1
        }
        position = start
        return string() != nil
    }
}

/// Standard base64 with its padding, as `Data(base64Encoded:)` takes it; nil for anything
/// else, and for trailing bits that are not zero (which the front leaves to the full program).
public func base64Decoded(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { base64Decoded($0) }
}

/// The same over bytes.
public func base64Decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard bytes.count % 4 == 0 else { return nil }
    var padding = 0
    if bytes.count >= 4, bytes[bytes.count - 1] == 0x3D { padding = bytes[bytes.count - 2] == 0x3D ? 2 : 1 }
    var out = [UInt8](repeating: 0, count: bytes.count / 4 * 3)
    let ok = out.withUnsafeMutableBufferPointer { out -> Bool in
        var index = 0
        var written = 0
        while index < bytes.count {
            // Four characters, three bytes; `=` only as the last one or two of the text.
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = bytes[index + offset]
                let value: UInt32
                switch byte {
                case 0x41...0x5A: value = UInt32(byte - 0x41)
                case 0x61...0x7A: value = UInt32(byte - 0x61 + 26)
                case 0x30...0x39: value = UInt32(byte - 0x30 + 52)
                case 0x2B: value = 62
                case 0x2F: value = 63
                case 0x3D:
                    guard index + offset >= bytes.count - padding else { return false }
                    value = 0
                default: return false
                }
                group = group << 6 | value
            }
            out[written] = UInt8(truncatingIfNeeded: group >> 16)
            out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
            out[written + 2] = UInt8(truncatingIfNeeded: group)
            written += 3
            index += 4
        }
        // The bits the padding leaves over must be zero.
        if padding == 1, out[written - 1] != 0 { return false }
        if padding == 2, out[written - 1] != 0 || out[written - 2] != 0 { return false }
        return true
    }
    guard ok else { return nil }
    out.removeLast(padding)
    return out
}

extension KeystoreRecordReader {
    /// A JSON string that holds base64 (a sealed value), decoded straight from the file's
    /// bytes, without a String: the text up to the next quote must be base64 as
    /// `base64Decoded` takes it (so no escape, no control character); nil otherwise.
    mutating func base64() -> [UInt8]? {
        guard take(Self.quote), position < bytes.count,
            let found = KeystoreScan.Scanner.firstQuote(in: UnsafeBufferPointer(rebasing: bytes[position...]))
        else { return nil }
        let end = position + found
        guard end - position <= Self.maximumString, let decoded = base64Decoded(UnsafeBufferPointer(rebasing: bytes[position..<end])) else {
            return nil
        }
        position = end + 1
        return decoded
    }
}

/// `SealedPlace.associatedData` of an identity's tokens: format 3's place (user, identity,
/// provider, issuer, federated id), format 2's (user, provider).
func tokensPlace(uid: String, identity: CachedIdentity, version: Int) -> [UInt8] {
    let label = version >= 3 ? "authctl keystore v3" : "authctl keystore v2"
    let parts =
        version >= 3
        ? ["user", uid, "identity", identity.providerId, identity.issuer, identity.federatedId, "tokens"]
        : ["user", uid, identity.providerId, "tokens"]
    var data = Array(label.utf8)
    for part in parts {
        let bytes = Array(part.utf8)
        let count = UInt32(truncatingIfNeeded: bytes.count)
        data += [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        data += bytes
    }
    return data
}

extension CachedUser {
    /// `KeystoreRecord.User.opening(with:version:)`: every identity's tokens opened with `open`
    /// (AES-256-GCM of nonce ‖ ciphertext ‖ tag under the data key, authenticating the place;
    /// one that does not open fails the whole read, as in the core), the plaintext read and then
    /// wiped with `wipe`, the secrets put back; nil for anything the front does not take.
    public func opened(version: Int, open: (_ combined: [UInt8], _ associated: [UInt8]) -> [UInt8]?, wipe: (inout [UInt8]) -> Void)
        -> CachedUser?
    {
        var user = self
        for index in user.providerData.indices {
            guard let tokens = user.providerData[index].tokens else { continue }
            guard let combined = tokens.sealed,
                var plaintext = open(combined, tokensPlace(uid: user.uid, identity: user.providerData[index], version: version))
            else { return nil }
            let read = plaintext.withUnsafeBufferPointer { bytes -> (accessToken: String?, idToken: String?, bound: CachedTokens??)? in
                var reader = KeystoreRecordReader(bytes)
                guard let secrets = reader.cachedSecrets(), reader.atEnd() else { return nil }
                return secrets
            }
            // The opened secrets (the refresh token among them) are not left in memory.
            wipe(&plaintext)
            guard let secrets = read else { return nil }
            // Format 3: the readable fields as they were sealed, which must be the file's.
            if version >= 3, secrets.bound == nil { return nil }
            if let bound = secrets.bound, bound != tokens.readable { return nil }
            var filled = tokens.readable
            filled.accessToken = secrets.accessToken
            filled.idToken = secrets.idToken
            user.providerData[index].tokens = filled
        }
        return user
    }
}
