import JWTKit

/// The JWTs authctl signs itself — Apple's client secret and `private_key_jwt` client
/// assertions (RFC 7523) — are signed by jwt-kit: a key collection holds the one key, added
/// with `serializer`, and `sign` writes the header (`alg` from the key, `typ` "JWT") and the
/// signature.
enum SignedJWT {
    /// Writes the JSON the same way every time, as authctl always has: members sorted, `/` not
    /// escaped, times as whole seconds since 1970 (RFC 7519 §2, NumericDate). jwt-kit's
    /// `add(ecdsa:)`, `add(rsa:)` and `add(pss:)` take it; a collection's own default serializer
    /// serves only keys added as JWKs.
    static func serializer() -> DefaultJWTSerializer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .integerSecondsSince1970
        return DefaultJWTSerializer(jsonEncoder: encoder)
    }

    /// `now` to the whole second, as `iat` carries it.
    static func wholeSeconds(_ now: Date) -> Date {
        Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.towardZero))
    }
}
