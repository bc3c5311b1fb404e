/// Cryptographically secure random bytes. `state`, `nonce`, PKCE verifiers and uids are
/// drawn from here (only by factories; request types take them as parameters).
public protocol RandomSource: Sendable {
    func bytes(count: Int) -> [UInt8]
}

extension RandomSource {
    /// `count` random bytes as unpadded base64url (RFC 4648 §5).
    public func base64URL(bytes count: Int) -> String {
        Base64URL.encode(bytes(count: count))
    }
}
