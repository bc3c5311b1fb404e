import FrontLibc

// A keystore sealed with a key file (docs/keystore.md), opened as AuthCore opens it
// (KeystoreSealing.swift, KeystoreKeyFile.swift, KeystoreSealedRecords.swift): the key file
// read with `SafeFile`'s checks, the data key unwrapped and checked against `keyCheck`
// (`KeyCheckHMAC`), every sealed value of the record opened at its place with AES-256-GCM
// from BoringSSL (`CachedUser.opened` of the cached-token core reads the secrets and compares
// the readable fields they were bound to: CachedSealing.swift). Anything else — a passphrase or the keyring, a
// key that does not open, secrets the front does not print — is the full program's (nil).

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
func dataKey(_ sealing: CachedSealing, keyFile: String) -> [UInt8]? {
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
