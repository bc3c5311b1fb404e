import FrontLibc

// A keystore sealed with a key file (docs/keystore.md), opened as AuthCore opens it
// (KeystoreSealing.swift, KeystoreKeyFile.swift, KeystoreSealedRecords.swift): the key file
// read with `SafeFile`'s checks, the data key unwrapped and checked against `keyCheck`
// (`KeyCheckHMAC`, shared), every sealed value of the record opened at its place with
// AES-256-GCM from BoringSSL, its secrets read (`SealedSecrets.fastDecoded`'s rules) and the
// readable fields it was bound to compared. Anything else — a passphrase or the keyring, a
// key that does not open, secrets the front does not print — is the full program's (nil).

/// The top-level `sealing` of a keystore sealed with a key file.
struct FrontSealing {
    var wrappedKey: String
    var keyCheck: String
    var keyFile: String?
}

extension KeystoreRecordReader {
    /// `KeystoreSealing.fastDecoded`'s reading; nil unless its key source is a key file.
    mutating func sealing() -> FrontSealing? {
        var seen = SeenKeys()
        var cipher: String?, keySource: String?, wrappedKey: String?, keyCheck: String?, keyFile: String?
        let ok = object { reader, key in
            switch key {
            case "cipher": return seen.first(0) && reader.set(&cipher, reader.string())
            case "keySource": return seen.first(1) && reader.set(&keySource, reader.string())
            case "wrappedKey": return seen.first(2) && reader.set(&wrappedKey, reader.string())
            case "keyCheck": return seen.first(3) && reader.set(&keyCheck, reader.string())
            case "keyringItem": return seen.first(5) && reader.string() != nil
            case "keyFile": return seen.first(6) && reader.set(&keyFile, reader.string())
            default: return false  // kdf: a passphrase's
            }
        }
        guard ok, cipher == "AES-256-GCM", keySource == "keyFile", let wrappedKey, let keyCheck else { return nil }
        return FrontSealing(wrappedKey: wrappedKey, keyCheck: keyCheck, keyFile: keyFile)
    }

    /// `SealedSecrets.fastDecoded`: the access, refresh and ID tokens, and the readable tokens
    /// they were bound to (`bound.tokens`); nil for anything else.
    mutating func secrets() -> (accessToken: String?, idToken: String?, bound: FrontTokens??)? {
        var seen = SeenKeys()
        var accessToken: String?, idToken: String?, bound: FrontTokens??
        let ok = object { reader, key in
            switch key {
            case "accessToken": return seen.first(0) && reader.set(&accessToken, reader.string())
            case "refreshToken": return seen.first(1) && reader.skipsString()
            case "idToken": return seen.first(2) && reader.set(&idToken, reader.string())
            case "additionalTokens": return seen.first(3) && reader.scopedTokens()
            case "bound":
                guard seen.first(4) else { return false }
                var boundSeen = SeenKeys()
                var tokens: FrontTokens?
                let ok = reader.object { reader, key in
                    guard key == "tokens", boundSeen.first(0) else { return false }
                    return reader.set(&tokens, reader.tokens())
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
func base64Decoded(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { base64Decoded($0) }
}

/// The same over bytes.
func base64Decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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
        guard take(Self.quote), position < bytes.count, let base = bytes.baseAddress,
            let hit = memchr(base + position, Int32(Self.quote), bytes.count - position)
        else { return nil }
        let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        guard end - position <= Self.maximumString, let decoded = base64Decoded(UnsafeBufferPointer(rebasing: bytes[position..<end])) else {
            return nil
        }
        position = end + 1
        return decoded
    }
}

/// AES-256-GCM open of nonce ‖ ciphertext ‖ tag (swift-crypto's `combined`) under `key`,
/// authenticating `associated`; nil when it does not open.
func aesGCMOpen(_ combined: [UInt8], key: [UInt8], associated: [UInt8]) -> [UInt8]? {
    guard key.count == 32, combined.count >= 28,
        let context = CCryptoBoringSSL_EVP_AEAD_CTX_new(
            CCryptoBoringSSL_EVP_aead_aes_256_gcm(), key, 32, 16)
    else { return nil }
    defer { CCryptoBoringSSL_EVP_AEAD_CTX_free(context) }
    var out = [UInt8](repeating: 0, count: combined.count)
    defer { wipe(&out) }
    var length = 0
    let opened = combined.withUnsafeBufferPointer { input -> Int32 in
        guard let base = input.baseAddress else { return 0 }
        return out.withUnsafeMutableBufferPointer { output in
            associated.withUnsafeBufferPointer { ad in
                CCryptoBoringSSL_EVP_AEAD_CTX_open(
                    context, output.baseAddress, &length, output.count, base, 12, base + 12, input.count - 12, ad.baseAddress, ad.count)
            }
        }
    }
    guard opened == 1, length <= out.count else { return nil }
    return Array(out[..<length])
}

/// The key file's key: `KeystoreKeyFile.read` (`SafeFile` with any directory: a regular file
/// of the user's, `0600`, no symbolic link; at most 256 bytes; 32 raw bytes or their base64).
func keyFileKey(_ path: String) -> [UInt8]? {
    guard let (directoryPath, name) = directoryAndName(path) else { return nil }
    let directory = front_open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { return nil }
    defer { close(directory) }
    let fd = front_openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & 0o170000 == 0o100000, info.st_uid == geteuid(), info.st_mode & 0o077 == 0,
        info.st_size >= 0, info.st_size <= 256
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var length = 0
    while length < bytes.count {
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return pread(fd, base + length, buffer.count - length, off_t(length))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return nil }
        length += count
    }
    if bytes.count == 32 { return bytes }
    defer { wipe(&bytes) }
    // The base64 text, ASCII white space around it (other white space: the full program's).
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return nil }
    // Decoded from the bytes themselves: no String copy of the key's text is left behind.
    guard var key = bytes.withUnsafeBufferPointer({ base64Decoded(UnsafeBufferPointer(rebasing: $0[first...last])) }) else { return nil }
    guard key.count == 32 else {
        wipe(&key)
        return nil
    }
    return key
}

/// The data key: unwrapped from `wrappedKey` with the key file's key, and its check value
/// (`DataKey.checkValue`) the file's `keyCheck`.
func dataKey(_ sealing: FrontSealing, keyFile: String) -> [UInt8]? {
    guard var wrapping = keyFileKey(keyFile) else { return nil }
    defer { wipe(&wrapping) }
    guard let combined = base64Decoded(sealing.wrappedKey),
        var key = aesGCMOpen(combined, key: wrapping, associated: Array("authctl keystore data key\u{0}keyFile".utf8))
    else { return nil }
    guard key.count == 32, let check = base64Decoded(sealing.keyCheck),
        check == Array(KeyCheckHMAC.sha256(key: key, message: Array("authctl keystore key check".utf8)).prefix(16))
    else {
        wipe(&key)
        return nil
    }
    return key
}

/// Overwrites a key's bytes before its memory is given back (`explicit_bzero`: not optimised away).
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { explicit_bzero(base, buffer.count) }
    }
}

/// `SealedPlace.associatedData` of an identity's tokens: format 3's place (user, identity,
/// provider, issuer, federated id), format 2's (user, provider).
func tokensPlace(uid: String, identity: FrontIdentity, version: Int) -> [UInt8] {
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

/// `KeystoreRecord.User.opening(with:version:)`: every identity's tokens opened (one that
/// does not open fails the whole read, as in the core), the secrets put back; nil for anything
/// the front does not take.
func opened(_ user: FrontUser, key: [UInt8], version: Int) -> FrontUser? {
    var user = user
    for index in user.providerData.indices {
        guard let tokens = user.providerData[index].tokens else { continue }
        guard let combined = tokens.sealed,
            var plaintext = aesGCMOpen(
                combined, key: key, associated: tokensPlace(uid: user.uid, identity: user.providerData[index], version: version))
        else { return nil }
        let read = plaintext.withUnsafeBufferPointer { bytes -> (accessToken: String?, idToken: String?, bound: FrontTokens??)? in
            var reader = KeystoreRecordReader(bytes)
            guard let secrets = reader.secrets(), reader.atEnd() else { return nil }
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
