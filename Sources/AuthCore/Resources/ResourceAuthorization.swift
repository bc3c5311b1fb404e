/// The one place the headers that present a resource grant's token are made
/// (docs/resources.md): `Authorization: Bearer …`, or for a DPoP-bound token (RFC 9449 §7)
/// `Authorization: DPoP …` and the request's own proof.
public enum ResourceAuthorization {
    /// The headers that authorize `method url` with `accessToken`: bearer, or with `proofKey`
    /// DPoP and a proof made now for this request (`ath` binds it to the token), carrying the
    /// resource's `nonce` when it gave one.
    /// A DPoP token whose key is missing is refused: it is never presented as a bearer token.
    public static func headers(
        accessToken: String, tokenType: String, proofKey: DPoPKey?, method: String, url: URL, now: Date, random: any RandomSource,
        nonce: String? = nil
    ) throws -> [String: String] {
        let bound = CachedTokenAnswer.isDPoP(tokenType)
        if bound, proofKey == nil { throw AuthError.dpopKeyMissing("the token for \(url.host ?? "the resource")") }
        guard bound, let proofKey else {
            // RFC 6750 §2.1: the scheme is `Bearer` whatever case the token endpoint used.
            return ["Authorization": "Bearer \(accessToken)"]
        }
        let proof = try proofKey.proof(
            method: method, url: url, now: now, jti: random.base64URL(bytes: 18), nonce: nonce, accessToken: accessToken)
        return ["Authorization": "DPoP \(accessToken)", "DPoP": proof]
    }
}
