import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// `CachedResourceAnswer` (the front's `token --resource`, issue 37) held to AuthCore: a URL of
/// the plain form is its own `ResourceIdentifier` and `RequestURL`; where the front says a grant
/// covers a URL or a token's audience names the resource, `ResourceIdentifier.covers` and
/// `ResourceAudience` say so too, and where they refuse, the front does not answer.
struct CachedResourceAnswerTests {
    static let urls = [
        "https://api.example/mcp", "https://api.example", "https://a-b.c1.example:8443/v1/x_y~z.json", "http://127.0.0.1:8080/mcp",
        "https://API.example/mcp", "https://api.example/", "https://api.example/mcp/", "https://api.example/mcp?x=1",
        "https://api.example/mcp#f", "https://api.example/./mcp", "https://api.example/mcp/..", "https://api.example/m%63p",
        "https://api.example:0443/mcp", "https://api.example:65536/mcp", "https://api.example:/mcp", "http://api.example/mcp",
        "http://localhost/mcp", "https://me@api.example/mcp", "https://api..example/mcp", "https://.api.example/mcp",
        "https://api.example/m cp", "https://api.example/m\\cp", "https://[::1]/mcp", "ftp://api.example/mcp", "",
        "https://xn--bcher-kva.example/ü", "https://api.example//mcp",
    ]

    @Test("a plain resource URL is its own identifier and request URL", arguments: urls)
    func plainIsIdentity(url: String) throws {
        guard CachedResourceAnswer.isPlainResource(url) else { return }
        #expect(try ResourceIdentifier(parsing: url).description == url)
        #expect(try RequestURL.normalized(url).absoluteString == url)
    }

    @Test("the plain forms: what the front takes; the rest is the full program's")
    func plainForms() {
        #expect(
            Self.urls.filter(CachedResourceAnswer.isPlainResource) == [
                "https://api.example/mcp", "https://api.example", "https://a-b.c1.example:8443/v1/x_y~z.json", "http://127.0.0.1:8080/mcp",
            ])
    }

    @Test("covers: as ResourceIdentifier.covers on plain URLs")
    func covers() throws {
        let plain = Self.urls.filter(CachedResourceAnswer.isPlainResource) + ["https://api.example/mcpx", "https://api.example/mcp/tools"]
        for grant in plain {
            for url in plain {
                let identifier = try ResourceIdentifier(parsing: grant)
                let expected = identifier.covers(try #require(URL(string: url)))
                #expect(CachedResourceAnswer.covers(grant, url) == expected, "\(grant) covering \(url)")
            }
        }
    }

    static func jwt(header: String = #"{"alg":"RS256"}"#, payload: String) -> String {
        func part(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return part(header) + "." + part(payload) + ".c2ln"
    }

    @Test("an answer's audience is one ResourceAudience takes; every token it refuses, the front leaves")
    func audiences() throws {
        let resource = "https://api.example/mcp"
        let grant = ResourceGrant(resource: resource, issuer: "https://as.example", providerID: "oidc.as", grantedAt: Date(), tokens: nil)
        let tokens = [
            "opaque", "a.b.c.d", Self.jwt(payload: #"{"aud":"https://api.example/mcp"}"#),
            Self.jwt(payload: #"{"aud":["x","https://api.example"]}"#), Self.jwt(payload: #"{"aud":"https://api.example/mc"}"#),
            Self.jwt(payload: #"{"aud":"https://other.example"}"#), Self.jwt(payload: #"{"sub":"s"}"#), Self.jwt(payload: #"{"aud":7}"#),
            Self.jwt(payload: #"{"aud":[7,"https://api.example/mcp"]}"#), Self.jwt(payload: #"{"aud":"https://API.example/mcp"}"#),
            Self.jwt(header: "{}", payload: #"{"aud":"x"}"#), Self.jwt(payload: #"{"aud":"x","aud":"https://api.example/mcp"}"#),
            Self.jwt(payload: #"{"aud":"https:\/\/api.example\/mcp"}"#), "e30.!!.c2ln",
        ]
        var answered = 0
        for token in tokens where CachedResourceAnswer.audienceNames(token, resource: resource) {
            answered += 1
            #expect(throws: Never.self, "\(token)") { try ResourceAudience.check(token, for: grant) }
        }
        #expect(answered == 5, "opaque, four parts, the resource, its origin among others, and an escaped slash")
    }
}
