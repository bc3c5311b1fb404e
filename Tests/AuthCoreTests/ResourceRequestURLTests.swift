import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Issue 35, part D: the URL a request is checked with is the URL it is sent to. Dot segments
/// are removed (RFC 3986 §5.2.4) before the grant is chosen; what a server could decode into
/// another path is refused.
extension ResourceRequestTests {
    @Test("…/mcp/../admin is a request to /admin: no grant covers it, nothing is sent")
    func dotSegmentsLeavingTheResource() async {
        let transport = transport()
        for url in ["https://api.example.com/mcp/../admin", "https://api.example.com/mcp/a/../../admin", "https://api.example.com/mcp/.."] {
            await #expect(throws: AuthError.self, "\(url)") {
                _ = try await request(keystore(), transport).run(.init(url: URL(string: url)!))
            }
        }
        #expect(transport.requests.isEmpty, "sent: \(transport.requests.map(\.url))")
    }

    @Test("dot segments inside the resource are removed, and the URL sent is the one checked (query untouched)")
    func dotSegmentsInside() async throws {
        let transport = StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8)) }
        let outcome = try await request(keystore(), transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/x/./../items/.?a=../b#frag")!))
        #expect(outcome == .answered(HTTPResponse(status: 200, body: Data("ok".utf8))))
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.example.com/mcp/items/?a=../b"])
    }

    @Test("encoded dots, slashes and backslashes in the path are refused as invalid-argument, naming them; nothing is sent")
    func encodedDotsAndSlashes() async {
        let transport = transport()
        for path in ["/mcp/%2e%2e/admin", "/mcp/%2E%2e/admin", "/mcp/.%2E/admin", "/mcp%2fadmin", "/mcp/a%2Fb", "/mcp/a%5Cb", "/mcp/a%5cb"]
        {
            do {
                _ = try await request(keystore(), transport).run(.init(url: URL(string: "https://api.example.com" + path)!))
                Issue.record("\(path) was accepted")
            } catch let error as AuthError {
                #expect(error.code == .invalidArgument, "\(path): \(error)")
                #expect("\(error.message)".contains("encoded"), "\(path): \(error.message)")
            } catch {
                Issue.record("\(path): \(error)")
            }
        }
        #expect(transport.requests.isEmpty)
    }

}

extension ResourceRequestTests {
    @Test("RFC 3986 §5.2.4's examples and a few more: dot-segment removal on the path as written")
    func removeDotSegments() {
        let cases = [
            ("/a/b/c/./../../g", "/a/g"), ("mid/content=5/../6", "mid/6"), ("/a/b/../..", "/"), ("/..", "/"), ("/./", "/"),
            ("/a/./b/", "/a/b/"), ("/a/b/..", "/a/"), ("", ""), ("/a//../b", "/a/b"), ("/a/.../b", "/a/.../b"), ("/a/..b/c", "/a/..b/c"),
        ]
        for (path, expected) in cases { #expect(RequestURL.removingDotSegments(path) == expected, "\(path)") }
    }

    @Test("the URL is parsed from its text: the fragment dropped, the authority and the query kept as written")
    func normalizedText() throws {
        #expect(try RequestURL.normalized("http://127.0.0.1:8080/a/../b?x=/../#f").absoluteString == "http://127.0.0.1:8080/b?x=/../")
        #expect(try RequestURL.normalized("https://h.example").absoluteString == "https://h.example")
        #expect(try RequestURL.normalized("https://h.example?q=%2e").absoluteString == "https://h.example?q=%2e")
        #expect(throws: AuthError.self) { try RequestURL.normalized("https://h.example/a\\b") }
        #expect(throws: AuthError.self) { try RequestURL.normalized("h.example/a") }
    }
}

extension ResourceRequestTests {
    @Test("covers judges the path a server would see: dot segments removed, encoded dots and slashes covered by nothing")
    func coversTheNormalisedPath() throws {
        let mcp = try ResourceIdentifier(parsing: "https://api.example.com/mcp")
        for url in [
            "https://api.example.com/mcp/../admin", "https://api.example.com/mcp/..", "https://api.example.com/mcp/%2e%2e/admin",
            "https://api.example.com/mcp/a%2fb",
        ] {
            #expect(!mcp.covers(URL(string: url)!), "\(url)")
        }
        #expect(mcp.covers(URL(string: "https://api.example.com/mcp/a/../items")!))
        #expect(mcp.covers(URL(string: "https://api.example.com/x/../mcp/items")!))
    }
}
