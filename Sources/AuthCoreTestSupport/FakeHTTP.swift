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

    /// The page of `response_mode=form_post` (OAuth 2.0 Form Post Response Mode): a form that
    /// posts `fields` to `redirectURI` as soon as a browser loads it.
    public static func autoPost(to redirectURI: String, _ fields: [(String, String)]) -> HTTPResponse {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let inputs = fields.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }.joined()
        let html = """
            <!DOCTYPE html><html><body onload="document.forms[0].submit()">\
            <form method="post" action="\(escape(redirectURI))">\(inputs)</form></body></html>
            """
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(html.utf8))
    }

    /// RFC 7636 §4.6 with S256: BASE64URL(SHA256(verifier)) == challenge.
    public static func pkceMatches(verifier: String?, challenge: String) -> Bool {
        Base64URL.encode(SHA256.hash(data: Data((verifier ?? "").utf8))) == challenge
    }
}
