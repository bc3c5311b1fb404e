import Crypto

/// A key file for a sealed keystore (`keystore seal --key-file`, `AUTHCTL_KEYSTORE_KEY_FILE`):
/// 32 random bytes, raw or in base64 on one line (as `keystore new-key` prints them, and as
/// a CI secret store holds text). Checked like every secret file — a regular file of the
/// user's own that no one else may read (`0600`), not a symbolic link — and read bounded.
public enum KeystoreKeyFile {
    /// The most a key file may hold: 32 bytes, or their base64 with a line end and spaces.
    static let maximumSize = 256

    /// The key in the file at `path`.
    static func read(_ path: String) throws -> SymmetricKey {
        let what = "the keystore key file"
        let data = try SafeFile.withOpened(path, what: what, code: .keystoreError, directory: .any) { fd, info -> Data in
            guard info.st_size <= maximumSize else { throw malformed(path) }
            guard let data = SafeFile.read(fd, range: 0..<Int(info.st_size)) else {
                throw AuthError.keystore("\(what) \(path) could not be read. Check it, or give another with AUTHCTL_KEYSTORE_KEY_FILE")
            }
            return data
        }
        guard let data else {
            throw AuthError.keystore(
                "\(what) \(path) does not exist. Give the path of the key file the keystore was sealed with in AUTHCTL_KEYSTORE_KEY_FILE")
        }
        guard let key = key(from: data) else { throw malformed(path) }
        return key
    }

    /// 32 raw bytes, or the base64 of 32 bytes (surrounding white space ignored).
    static func key(from data: Data) -> SymmetricKey? {
        if data.count == 32 { return SymmetricKey(data: data) }
        let text = String(decoding: data, as: UTF8.self).trimming(.whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// A new key in the text form, with its line end: what `keystore new-key` prints.
    public static func newKeyText() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString() + "\n"
    }

    static func malformed(_ path: String) -> AuthError {
        AuthError.keystore(
            "the keystore key file \(path) is not a key (32 random bytes, raw or in base64). Make one with: \(command: .keystoreNewKey)")
    }
}
