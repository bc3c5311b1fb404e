import Crypto
import JWTKit
import _CryptoExtras

/// A `private_key_jwt` client assertion (RFC 7523 §2.2 and §3; OpenID Connect Core 9):
/// a JWT signed with the client's private key, `iss` = `sub` = the client id, `aud` = the
/// token endpoint, a unique `jti`, and an `exp` a few minutes ahead (at most 10).
///
/// The key comes in one PEM with its certificate, as Azure CLI's `--certificate` takes it:
/// an RSA key signs RS256 (PS256 when asked), a P-256 key ES256. With `certificateThumbprint` (Microsoft) the
/// header carries `x5t#S256`, the SHA-256 of the certificate's DER (RFC 7515 §4.1.8), by
/// which Entra ID finds the registered certificate. jwt-kit signs it (`SignedJWT`).
public enum ClientAssertion {
    /// The assertion's lifetime: 5 minutes (RFC 7523 §3 asks for a short one; at most 10 here).
    public static let lifetime: TimeInterval = 300

    /// The algorithms an assertion may be asked in (`--assertion-algorithm`).
    public static let algorithms = ["RS256", "PS256", "ES256"]

    public static func signed(
        pem: String, path: String, clientID: String, audience: URL, jti: String, now: Date, certificateThumbprint: Bool,
        algorithm asked: String? = nil
    ) async throws -> String {
        let blocks = PEMBlocks(pem)
        var header = JWTHeader()
        header.typ = "JWT"
        if certificateThumbprint {
            guard let certificate = blocks.first("CERTIFICATE") else {
                throw AuthError.notConfigured(
                    "the certificate file \(path) holds no CERTIFICATE block; Microsoft finds the app's key by the certificate. Put the certificate and its private key in one PEM (\(input: .certificateFile))"
                )
            }
            header.x5tS256 = Base64URL.encode(Data(SHA256.hash(data: certificate)))
        }
        let issuedAt = SignedJWT.wholeSeconds(now)
        let claims = Claims(
            iss: IssuerClaim(value: clientID), sub: SubjectClaim(value: clientID), aud: AudienceClaim(value: audience.absoluteString),
            jti: IDClaim(value: jti), iat: IssuedAtClaim(value: issuedAt), nbf: NotBeforeClaim(value: issuedAt),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(lifetime)))
        let keys = JWTKeyCollection()
        if let key = blocks.first("PRIVATE KEY") ?? blocks.first("RSA PRIVATE KEY") ?? blocks.first("EC PRIVATE KEY") {
            if let backing = try? _RSA.Signing.PrivateKey(derRepresentation: key), let rsa = try? Insecure.RSA.PrivateKey(backing: backing)
            {
                if !certificateThumbprint, let primitives = try? backing.publicKey.getKeyPrimitives() {
                    header.kid = JWKThumbprint.rsa(modulus: primitives.modulus, exponent: primitives.publicExponent)
                }
                // RFC 7518 §3.3 (RSASSA-PKCS1-v1_5) or §3.5 (RSASSA-PSS, SHA-256, MGF1, a 32-byte salt).
                switch asked {
                case nil, "RS256": await keys.add(rsa: rsa, digestAlgorithm: .sha256, serializer: SignedJWT.serializer())
                case "PS256": await keys.add(pss: rsa, digestAlgorithm: .sha256, serializer: SignedJWT.serializer())
                default: throw mismatch(path, key: "an RSA", asked: asked)
                }
                return try await keys.sign(claims, header: header)
            }
            if let p256 = try? P256.Signing.PrivateKey(derRepresentation: key), let ec = try? ES256PrivateKey(backing: p256) {
                guard asked == nil || asked == "ES256" else { throw mismatch(path, key: "a P-256", asked: asked) }
                if !certificateThumbprint { header.kid = JWKThumbprint.p256(p256.publicKey) }
                await keys.add(ecdsa: ec, serializer: SignedJWT.serializer())
                return try await keys.sign(claims, header: header)
            }
        }
        throw AuthError.notConfigured(
            "the certificate file \(path) holds no RSA or P-256 private key in PEM. Put the private key and its certificate in one PEM (\(input: .certificateFile))"
        )
    }

    /// The claims of RFC 7523 §3.
    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var jti: IDClaim
        var iat: IssuedAtClaim
        var nbf: NotBeforeClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func mismatch(_ path: String, key: String, asked: String?) -> AuthError {
        AuthError.invalidArgument(
            "the certificate file \(path) holds \(key) key, which cannot sign \(asked ?? "?"). Ask RS256 or PS256 for an RSA key, ES256 for a P-256 key"
        )
    }
}

/// The blocks of a PEM file (RFC 7468): label and DER, in order. It reads the lax form of
/// RFC 7468 §3 (lines of any length, spaces around them, text between blocks), which files
/// written by `base64 -w0` or a secret store's one-line export take; swift-asn1's
/// `PEMDocument` reads only the strict form (64-character lines) and would refuse them.
struct PEMBlocks {
    var blocks: [(label: String, der: Data)] = []

    init(_ text: String) {
        var label: String?
        var body = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimming(.whitespaces)
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if line.hasPrefix("-----END "), let open = label {
                if let der = Data(base64Encoded: body) { blocks.append((open, der)) }
                label = nil
            } else if label != nil {
                body += line
            }
        }
    }

    func first(_ label: String) -> Data? { blocks.first { $0.label == label }?.der }
}

/// RFC 7638 thumbprints of public keys: the `kid` of a client assertion (a server that finds
/// the client's key by `kid`, as Glewlwyd does, needs one; registering the public key under
/// its thumbprint is the usual convention), and `dpop_jkt` (`DPoPKey`).
enum JWKThumbprint {
    /// An EC P-256 key: SHA-256 of `{"crv","kty","x","y"}`, base64url.
    static func p256(_ key: P256.Signing.PublicKey) -> String {
        let point = key.rawRepresentation
        let x = Base64URL.encode(point.prefix(32)), y = Base64URL.encode(point.suffix(32))
        let members = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(utf8: members)))
    }

    /// An RSA key: SHA-256 of `{"e","kty","n"}` (big-endian, no leading zeros), base64url.
    static func rsa(modulus: Data, exponent: Data) -> String {
        func unsigned(_ data: Data) -> Data { Data(data.drop { $0 == 0 }) }
        let members = #"{"e":"\#(Base64URL.encode(unsigned(exponent)))","kty":"RSA","n":"\#(Base64URL.encode(unsigned(modulus)))"}"#
        return Base64URL.encode(SHA256.hash(data: Data(utf8: members)))
    }
}
