import JWTKit

/// Sign in with Apple's client secret: an ES256 JWT signed with the app's `.p8` key
/// (Apple: "Creating a client secret"). Header `alg` ES256 and `kid` = key id (and `typ` JWT); claims
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

    /// The signed JWT, valid from `now` for `lifetime`; jwt-kit signs it.
    public func make(privateKeyPEM: String, now: Date, lifetime: TimeInterval = Self.lifetime) async throws -> String {
        let key: ES256PrivateKey
        do {
            key = try ES256PrivateKey(pem: privateKeyPEM)
        } catch {
            throw AuthError.notConfigured(
                "the Apple private key is not a P-256 key in PEM (PKCS#8) form. Use the AuthKey_\(keyID).p8 file downloaded from the Apple developer site"
            )
        }
        let issuedAt = SignedJWT.wholeSeconds(now)
        let claims = Claims(
            iss: IssuerClaim(value: teamID), sub: SubjectClaim(value: clientID), aud: AudienceClaim(value: audience),
            iat: IssuedAtClaim(value: issuedAt),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(min(lifetime, Self.maximumLifetime).rounded(.towardZero))))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, serializer: SignedJWT.serializer())
        // Header: `alg` ES256 (the key's), `kid` the key id, and `typ` "JWT", which jwt-kit always writes.
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }

    /// The claims Apple reads (its "Creating a client secret").
    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
