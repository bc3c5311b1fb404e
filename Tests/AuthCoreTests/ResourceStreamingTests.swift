import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// `authctl request` streams (docs/resources.md): the body reaches the sink chunk by chunk
/// while the transfer runs, with no bound; whether to refresh, send again or step up is
/// decided on the head, before any body byte; a body not wanted is dropped, bounded.
@Suite("Resources: streamed answers")
struct ResourceStreamingTests {
    let fixture = ResourceRequestTests()

    /// Records what reaches it in the transport's own event log, so that the order of the two
    /// shows; `failAfter`: a closed stdout after that many chunks.
    final class RecordingSink: ResponseSink, @unchecked Sendable {
        let transport: StubTransport?
        private let lock = NSLock()
        private var heads: [HTTPResponseHead] = []
        private var bytes = Data()
        private var chunks = 0
        let failAfter: Int?

        struct Closed: Error {}

        init(_ transport: StubTransport?, failAfter: Int? = nil) {
            self.transport = transport
            self.failAfter = failAfter
        }

        func head(_ head: HTTPResponseHead) throws {
            lock.withLock { heads.append(head) }
            transport?.note("sink head \(head.status)")
        }

        func body(_ chunk: Data) throws {
            let count = lock.withLock {
                chunks += 1
                bytes += chunk
                return chunks
            }
            if let failAfter, count > failAfter { throw Closed() }
            transport?.note("sink \(String(decoding: chunk, as: UTF8.self).prefix(20))")
        }

        var received: Data { lock.withLock { bytes } }
        var receivedHeads: [HTTPResponseHead] { lock.withLock { heads } }
    }

    static let events = "event: a\n\nevent: b\n\n"

    func transport(body: Data = Data(ResourceStreamingTests.events.utf8)) -> StubTransport {
        StubTransport { request in
            let bearer = request.headers["Authorization"]
            switch request.url.path {
            case "/mcp/events":
                guard bearer == "Bearer at2" else {
                    return HTTPResponse(
                        status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#],
                        body: Data("the token expired".utf8))
                }
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: body)
            case "/mcp/admin":
                return HTTPResponse(
                    status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="read write""#],
                    body: Data(repeating: 0x78, count: 1 << 20))
            case "/mcp/missing":
                return HTTPResponse(status: 404, body: Data("no such item".utf8))
            case "/.well-known/oauth-authorization-server":
                return HTTPResponse(status: 200, body: Data(ResourceRequestTests.serverDocument.utf8))
            case "/token":
                return HTTPResponse(
                    status: 200,
                    body: Data(
                        #"{"access_token": "at2", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt2", "scope": "read"}"#
                            .utf8))
            default:
                return HTTPResponse(status: 404)
            }
        }
    }

    @Test("the body reaches the sink chunk by chunk, in order, each before the next is read; the head first")
    func chunksInOrder() async throws {
        let keystore = fixture.keystore(), transport = transport()
        transport.chunkSize = 10
        let sink = RecordingSink(transport)
        let outcome = try await fixture.request(keystore, transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/events")!), streamingTo: sink)
        #expect(outcome == .streamed(HTTPResponseHead(status: 200, headers: ["Content-Type": "text/event-stream"])))
        #expect(sink.received == Data(Self.events.utf8))
        let events = transport.events.drop { !$0.hasPrefix("sink head") }
        #expect(
            Array(events) == [
                "sink head 200", "head 200 → stream", "sink event: a\n\n", "chunk 1", "sink event: b\n\n", "chunk 2", "end",
            ])
    }

    @Test("a 401 invalid_token is decided on its head: its body is dropped, never sent to the sink; one refresh, one retry")
    func refreshDecidedOnHead() async throws {
        let keystore = fixture.keystore(), transport = transport()
        let sink = RecordingSink(transport)
        _ = try await fixture.request(keystore, transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/events")!), streamingTo: sink)
        #expect(Array(transport.events.prefix(3)) == ["head 401 → discard", "discarded 17 bytes", "end"])
        #expect(sink.receivedHeads.map(\.status) == [200])
        #expect(!String(decoding: sink.received, as: UTF8.self).contains("expired"))
        #expect(transport.requests.filter { $0.url.path == "/token" }.count == 1)
        #expect(keystore.state.users.first?.resourceGrants.first?.tokens?.accessToken == "at2")
    }

    @Test("403 insufficient_scope: a step-up decided on the head; nothing reaches the sink, the body is read 64 KiB at most")
    func stepUpDecidedOnHead() async throws {
        let transport = transport()
        let sink = RecordingSink(transport)
        let outcome = try await fixture.request(fixture.keystore(), transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/admin")!), streamingTo: sink)
        guard case .stepUp(let stepUp) = outcome else {
            Issue.record("a step-up, got \(outcome)")
            return
        }
        #expect(stepUp.scopes == ["read", "write"])
        #expect(sink.receivedHeads.isEmpty && sink.received.isEmpty)
        #expect(transport.events == ["head 403 → discard", "discarded \(64 << 10) bytes", "end"])
    }

    @Test("a DPoP-bound grant: the resource's use_dpop_nonce is answered on the head, its body never reaching the sink")
    func dpopNonceDecidedOnHead() async throws {
        let key = DPoPKey.generate(using: SeededRandom(seed: 42))
        var user = try #require(try fixture.keystore().read().currentUser)
        var grant = try #require(user.resourceGrants.first)
        grant.tokens?.tokenType = "DPoP"
        grant.tokens?.proofKey = key
        user.store(grant)
        let keystore = InMemoryKeystore(AccountState(currentUID: "u1", users: [user]))
        let transport = StubTransport { request in
            guard let proof = request.headers["DPoP"], let body = proof.split(separator: ".").dropFirst().first,
                let bytes = Base64URL.decode(body), let claims = JSONValue.object(from: bytes), claims["nonce"] == "rs-nonce"
            else {
                return HTTPResponse(
                    status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-nonce"],
                    body: Data("nonce please".utf8))
            }
            return HTTPResponse(status: 200, body: Data("event: a\n\n".utf8))
        }
        let sink = RecordingSink(transport)
        let outcome = try await fixture.request(keystore, transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/items")!), streamingTo: sink)
        #expect(outcome == .streamed(HTTPResponseHead(status: 200)))
        #expect(String(decoding: sink.received, as: UTF8.self) == "event: a\n\n")
        #expect(Array(transport.events.prefix(3)) == ["head 401 → discard", "discarded 12 bytes", "end"])
        #expect(transport.requests.count == 2, "once without the nonce, once with it; no refresh")
    }

    @Test("an error status that is not a challenge is streamed like any answer")
    func errorStreamed() async throws {
        let transport = transport()
        let sink = RecordingSink(transport)
        let outcome = try await fixture.request(fixture.keystore(), transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/missing")!), streamingTo: sink)
        #expect(outcome == .streamed(HTTPResponseHead(status: 404)))
        #expect(String(decoding: sink.received, as: UTF8.self) == "no such item")
    }

    @Test("an answer larger than 16 MiB streams whole; read whole (--json) it is refused as too large")
    func noBoundWhenStreamed() async throws {
        let big = Data(repeating: 0x61, count: (16 << 20) + 12345)
        let transport = transport(body: big)
        transport.chunkSize = 1 << 20
        let sink = RecordingSink(nil)
        _ = try await fixture.request(fixture.keystore(), transport).run(
            .init(url: URL(string: "https://api.example.com/mcp/events")!), streamingTo: sink)
        #expect(sink.received.count == big.count)
        await #expect(throws: AuthError.self) {
            _ = try await fixture.request(fixture.keystore(), transport).run(.init(url: URL(string: "https://api.example.com/mcp/events")!))
        }
    }

    @Test("the sink's error (stdout closed) ends the transfer and is thrown as it is")
    func sinkErrorEnds() async throws {
        let transport = transport()
        transport.chunkSize = 2
        let sink = RecordingSink(transport, failAfter: 1)
        await #expect(throws: RecordingSink.Closed.self) {
            _ = try await fixture.request(fixture.keystore(), transport).run(
                .init(url: URL(string: "https://api.example.com/mcp/events")!), streamingTo: sink)
        }
        #expect(transport.events.last == "chunk 1", "the second chunk was never read")
    }
}

/// `CurlTransport.stream` against a server on 127.0.0.1 that writes its answer as it goes.
@Suite("CurlTransport: streamed answers")
struct CurlStreamingTests {
    /// Signalled by the sink when the first chunk arrived; the server waits for it (10 s at
    /// most) before it writes the second.
    final class Gate: @unchecked Sendable {
        let arrived = DispatchSemaphore(value: 0)
        let log = Mutex<[String]>([])
    }

    @Test("each chunk reaches the sink while the server still holds the next (an event stream), the head decided first")
    func chunksAsTheyCome() async throws {
        let gate = Gate()
        let server = try ScriptedLoopbackServer { connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            connection.write("data: one\n\n")
            let waited = gate.arrived.wait(timeout: .now() + 10)
            gate.log.withLock { $0.append(waited == .success ? "server saw the first event arrive" : "server timed out") }
            connection.write("data: two\n\n")
        }
        let head = try await CurlTransport(timeout: 10, environment: [:]).stream(
            HTTPRequest(url: URL(string: server.baseURL + "/events")!),
            decide: { head in
                gate.log.withLock { $0.append("head \(head.status) \(head.header("content-type") ?? "")") }
                return .stream
            },
            sink: { chunk in
                let text = String(decoding: chunk, as: UTF8.self)
                gate.log.withLock { $0.append("sink \(text)") }
                if text.contains("one") { gate.arrived.signal() }
            })
        #expect(head.status == 200)
        #expect(
            gate.log.withLock { $0 } == [
                "head 200 text/event-stream", "sink data: one\n\n", "server saw the first event arrive", "sink data: two\n\n",
            ])
    }

    @Test("a discarded body is read 64 KiB at most, and the transfer ends without error")
    func discardBounded() async throws {
        let total = 8 << 20
        // What the server wrote before its writes failed, told when it stopped writing.
        let (written, told) = AsyncStream.makeStream(of: Int.self)
        let server = try ScriptedLoopbackServer { connection in
            connection.write(
                "HTTP/1.1 401 Unauthorized\r\nContent-Length: \(total)\r\nWWW-Authenticate: Bearer error=\"invalid_token\"\r\n\r\n")
            let block = [UInt8](repeating: 0x78, count: 16 << 10)
            var sent = 0
            while sent < total, connection.write(block) { sent += block.count }
            told.yield(sent)
            told.finish()
        }
        let head = try await CurlTransport(timeout: 10, environment: [:]).stream(
            HTTPRequest(url: URL(string: server.baseURL + "/")!), decide: { _ in .discard },
            sink: { _ in Issue.record("a discarded body reached the sink") })
        #expect(head.status == 401 && head.header("www-authenticate") != nil)
        // The server's writes fail once authctl closed the connection (socket buffers hold some).
        var stopped = written.makeAsyncIterator()
        let sent = try #require(await stopped.next())
        #expect(sent < total)
    }

    @Test("a sink that throws (stdout closed) ends the transfer with its own error")
    func sinkThrows() async throws {
        struct Closed: Error {}
        let server = try ScriptedLoopbackServer { connection in
            connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
            while connection.write(String(repeating: "x", count: 4096)) {}
        }
        await #expect(throws: Closed.self) {
            _ = try await CurlTransport(timeout: 10, environment: [:]).stream(
                HTTPRequest(url: URL(string: server.baseURL + "/")!), decide: { _ in .stream }, sink: { _ in throw Closed() })
        }
    }

    /// The one test here that takes real time: libcurl's timers are the adapter's own, and no
    /// clock of the test drives them. Its server writes the body's end twice the timeout late.
    @Test("no total time limit once the head is in: a body slower than the transport's timeout arrives whole")
    func noTotalTimeout() async throws {
        let server = try ScriptedLoopbackServer { connection in
            connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nfirst ")
            Thread.sleep(forTimeInterval: 1)
            connection.write("second")
        }
        let received = Mutex(Data())
        _ = try await CurlTransport(timeout: 0.5, environment: [:]).stream(
            HTTPRequest(url: URL(string: server.baseURL + "/")!), decide: { _ in .stream },
            sink: { chunk in received.withLock { $0 += chunk } })
        #expect(String(decoding: received.withLock { $0 }, as: UTF8.self) == "first second")
    }

    /// libcurl's timer, as above: its second is real; the server holds the connection until told.
    @Test("a head that does not come within the timeout ends the wait, naming the host")
    func headTimeout() async throws {
        let done = DispatchSemaphore(value: 0)
        defer { done.signal() }
        let server = try ScriptedLoopbackServer { _ in _ = done.wait(timeout: .now() + 30) }
        await #expect {
            _ = try await CurlTransport(timeout: 1, environment: [:]).stream(
                HTTPRequest(url: URL(string: server.baseURL + "/")!), decide: { _ in .stream }, sink: { _ in })
        } throws: { error in
            "\(error)".contains("did not answer within 1 seconds")
        }
    }
}
