import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// `CurlTransport` sends a request's body with every method that carries one: `authctl
/// request -X PUT URL --data …` (docs/resources.md's own example) sent no body before.
@Suite("CurlTransport: request bodies")
struct CurlRequestBodyTests {
    /// A server that answers each request with its method, its body and its Content-Length.
    static func echoServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let text = "\(request.method) \(request.headers["content-length"] ?? "-") \(String(decoding: request.body, as: UTF8.self))"
            return HTTPResponse(status: 200, body: Data(text.utf8))
        }
    }

    @Test(
        "PUT, PATCH, DELETE, POST and a GET given one carry their body, under their own method, read whole and streamed",
        arguments: [
            ("PUT", "{\"a\": 1}"), ("PATCH", "z=1"), ("DELETE", "gone"), ("POST", "p"), ("PUT", ""), ("GET", "q"),
        ])
    func bodies(method: String, body: String) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/items/1")!
        let transport = CurlTransport(timeout: 10, environment: [:])
        let request = HTTPRequest(method: method, url: url, body: Data(body.utf8))
        let answered = try await transport.send(request)
        #expect(String(decoding: answered.body, as: UTF8.self) == "\(method) \(body.utf8.count) \(body)")
        let streamed = Mutex(Data())
        _ = try await transport.stream(request, decide: { _ in .stream }, sink: { chunk in streamed.withLock { $0 += chunk } })
        #expect(String(decoding: streamed.withLock { $0 }, as: UTF8.self) == "\(method) \(body.utf8.count) \(body)")
    }

    @Test("a request without a body sends no Content-Length, whatever its method")
    func noBody() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/items/1")!
        for method in ["GET", "DELETE", "PUT"] {
            let answered = try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(method: method, url: url))
            #expect(String(decoding: answered.body, as: UTF8.self) == "\(method) - ")
        }
    }
}
