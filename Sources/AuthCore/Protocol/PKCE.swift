import Crypto

/// Proof Key for Code Exchange (RFC 7636), always with the `S256` method (never `plain`,
/// RFC 7636 §7.2, RFC 9700 §2.1.1).
public struct PKCE: Sendable, Equatable {
    /// `code_verifier` (RFC 7636 §4.1): 43–128 characters of `[A-Z a-z 0-9 - . _ ~]`.
    public let codeVerifier: String
    /// `code_challenge` = BASE64URL(SHA256(ASCII(code_verifier))) (RFC 7636 §4.2).
    public let codeChallenge: String
    /// `code_challenge_method`.
    public let codeChallengeMethod = "S256"

    public init(codeVerifier: String) {
        self.codeVerifier = codeVerifier
        self.codeChallenge = Base64URL.encode(SHA256.hash(data: Data(codeVerifier.utf8)))
    }

    /// A fresh verifier from 32 random bytes (43 base64url characters, RFC 7636 §4.1).
    public static func generate(using random: any RandomSource) -> PKCE {
        PKCE(codeVerifier: random.base64URL(bytes: 32))
    }
}
