import AuthCore
import Crypto
import Foundation

/// The HTTP pieces every in-process fake provider shares (`FakeIdentityProvider`,
/// `FakeMicrosoft`): JSON answers, form bodies, the 302 back to the redirect URI, PKCE.
public enum FakeHTTP {
    /// A JSON answer with the headers real providers send on token responses.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"],
            body: try! encoder.encode(value))
    }

    /// An `application/x-www-form-urlencoded` body (or query string) as a dictionary.
    public static func form(_ body: Data) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in FormURLEncoding.decode(String(decoding: body, as: UTF8.self)) ?? [] { result[name] = value }
        return result
    }

    /// The 302 of an authorization endpoint to `redirectURI` with `parameters` in the query.
    public static func redirect(to redirectURI: String, _ parameters: [(String, String)]) -> HTTPResponse {
        let separator = redirectURI.contains("?") ? "&" : "?"
        return HTTPResponse(status: 302, headers: ["Location": redirectURI + separator + FormURLEncoding.encode(parameters)])
    }

    /// RFC 7636 §4.6 with S256: BASE64URL(SHA256(verifier)) == challenge.
    public static func pkceMatches(verifier: String?, challenge: String) -> Bool {
        Base64URL.encode(SHA256.hash(data: Data((verifier ?? "").utf8))) == challenge
    }
}
