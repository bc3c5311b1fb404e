import AuthCore
import Foundation

/// An `HTTPTransport` that hands each request to the in-process server (`LoopbackHTTPServer`:
/// the fake providers, a test's hostile server) listening on its `127.0.0.1` port directly,
/// without a socket or libcurl: the fakes answer as they do on the wire, in a fraction of
/// the time. A request to any other address goes to `fallback` (the real transport).
///
/// What `CurlTransport` enforces before and after the exchange holds here too: a header with
/// a line break is refused before anything is "sent", an answer longer than the request's
/// limit fails as too large.
public struct InMemoryNetwork: HTTPTransport {
    let fallback: any HTTPTransport

    public init(fallback: any HTTPTransport = CurlTransport(timeout: 10, environment: [:])) { self.fallback = fallback }

    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.url.scheme == "http", request.url.host == "127.0.0.1", let port = request.url.port,
            let handler = LoopbackHTTPServer.handler(onPort: port)
        else { return try await fallback.exchange(request) }
        try request.checkHeaders()
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.lowercased()] = value }
        if let body = request.body { headers["content-length"] = String(body.count) }
        let path = request.url.path(percentEncoded: true)
        let target = (path.isEmpty ? "/" : path) + (request.url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        let received = ReceivedRequest(method: request.method, target: target, headers: headers, body: request.body ?? Data())
        // A handler may block (a test's delayed answer): never on the cooperative pool.
        var response = await withCheckedContinuation { (continuation: CheckedContinuation<HTTPResponse, Never>) in
            DetachedThread.start { continuation.resume(returning: handler(received)) }
        }
        response.headers.removeValue(forKey: LoopbackHTTPServer.omitContentLength)
        if response.body.count > request.responseLimit { throw request.tooLarge() }
        return response
    }
}
