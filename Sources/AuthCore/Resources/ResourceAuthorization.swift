/// The one place the headers that present a resource grant's token are made
/// (docs/resources.md): `Authorization: Bearer …` today. A sender-constrained token (DPoP,
/// RFC 9449) will add its proof here, from the method and URL of the request it goes with.
public enum ResourceAuthorization {
    /// The headers that authorize `method url` with `accessToken` of type `tokenType`.
    public static func headers(accessToken: String, tokenType: String, method: String, url: URL) -> [String: String] {
        // RFC 6750 §2.1: the scheme is `Bearer` whatever case the token endpoint used. The
        // method, URL and token type are what a DPoP proof (RFC 9449 §4.2) will be made of.
        _ = (method, url, tokenType)
        return ["Authorization": "Bearer \(accessToken)"]
    }
}
