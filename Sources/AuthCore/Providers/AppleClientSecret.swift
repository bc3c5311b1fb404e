import Crypto

/// Sign in with Apple's client secret: an ES256 JWT signed with the app's `.p8` key
/// (Apple: "Creating a client secret"). Header `alg` ES256 and `kid` = key id; claims
/// `iss` = team id, `sub` = client id (the Services ID), `aud` = the issuer
/// (`https://appleid.apple.com`), `iat`, and `exp` at most 15,777,000 s (about six months)
/// later.
///
/// authctl makes a fresh one for each request, valid for `lifetime` (five minutes): it
/// never stores a client secret, and the key is read from its file each time, never copied.
public struct AppleClientSecret: Sendable, Equatable {
    /// Apple's upper bound on `exp - iat`.
    public static let maximumLifetime: TimeInterval = 15_777_000
    /// How long a secret authctl makes is valid.
    public static let lifetime: TimeInterval = 300

    public var teamID: String
    public var keyID: String
    public var clientID: String
    public var audience: String

    public init(teamID: String, keyID: String, clientID: String, audience: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.clientID = clientID
        self.audience = audience
    }

    /// The signed JWT, valid from `now` for `lifetime`.
    public func make(privateKeyPEM: String, now: Date, lifetime: TimeInterval = Self.lifetime) throws -> String {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw AuthError.notConfigured(
                "the Apple private key is not a P-256 key in PEM (PKCS#8) form. Use the AuthKey_\(keyID).p8 file downloaded from the Apple developer site"
            )
        }
        let issuedAt = Int(now.timeIntervalSince1970)
        let header: JSONValue = .object(["alg": "ES256", "kid": .string(keyID)])
        let claims: JSONValue = .object([
            "iss": .string(teamID), "sub": .string(clientID), "aud": .string(audience),
            "iat": .number(Double(issuedAt)),
            "exp": .number(Double(issuedAt + Int(min(lifetime, Self.maximumLifetime)))),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
