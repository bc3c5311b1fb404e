#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cryptographically secure random bytes. `state`, `nonce`, PKCE verifiers and uids are
/// drawn from here (only by factories; request types take them as parameters).
public protocol RandomSource: Sendable {
    func bytes(count: Int) -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom(2)` on Linux, through `SystemRandomNumberGenerator`).
public struct SystemRandomSource: RandomSource {
    public init() {}
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

extension RandomSource {
    /// `count` random bytes as unpadded base64url (RFC 4648 §5).
    public func base64URL(bytes count: Int) -> String {
        Base64URL.encode(bytes(count: count))
    }
}
