import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("Loopback listener sockets")
struct RedirectListenerTests {
    /// Delivers a redirect as a browser would (curl, which handles IPv6 literals like one).
    func deliver(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "--silent", "--globoff", "--max-time", "5", "--output", "/dev/null", url]
        try? process.run()
    }

    @Test("binds an ephemeral port on 127.0.0.1 and on ::1, and takes the matching redirect", arguments: ["127.0.0.1", "::1"])
    func bothFamilies(host: String) async throws {
        let listener = try RedirectListener(host: host, port: 0, peers: ProcNetTCPPeerLookup())
        #expect(listener.port > 0)
        let literal = host.contains(":") ? "[\(host)]" : host
        deliver("http://\(literal):\(listener.port)/callback?code=c&state=s")
        let redirect = try await listener.waitForRedirect(
            CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example")),
            until: .distantFuture, clock: ManualClock())
        redirect.browser.answer(.text(status: 200, "done"))
        #expect(redirect.outcome == .authorized(AuthorizationResponse(code: "c")))
    }

    /// What `recv` on `fd` says within the time given: "closed" (the peer closed it), "open"
    /// (nothing came), or "data".
    func peerState(_ fd: Int32, withinMilliseconds milliseconds: Int) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var byte: UInt8 = 0
                let count = recv(fd, &byte, 1, 0)
                continuation.resume(returning: count == 0 ? "closed" : count < 0 ? "open" : "data")
            }.start()
        }
    }

    @Test("a client that does not send its whole request within 5 s of the listener's clock is cut off; the redirect still comes in")
    func requestDeadline() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        let clock = ManualClock()
        let waiting = Task {
            try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example")),
                until: .distantFuture, clock: clock)
        }
        // A slow client: half a request line, then nothing.
        let slow = RawLoopbackClient.connect(port: listener.port)
        defer { close(slow) }
        _ = "GET /callback?code=c&st".withCString { send(slow, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        #expect(await peerState(slow, withinMilliseconds: 300) == "open", "cut off while the clock stood still")
        // The clock passes the deadline (again, in case the connection was accepted late).
        var state = "open"
        for _ in 0..<10 where state == "open" {
            clock.advance(by: 6)
            state = await peerState(slow, withinMilliseconds: 1000)
        }
        #expect(state == "closed", "the slow connection was kept past its deadline")
        async let answered = RawLoopbackClient.request("GET /callback?code=c&state=s", port: listener.port)
        let redirect = try await waiting.value
        redirect.browser.answer(.text(status: 200, "done"))
        let (status, _) = try await answered
        #expect(status == 200 && redirect.outcome == .authorized(AuthorizationResponse(code: "c")))
    }

    @Test("a port in use is a clear invalid-argument naming --listen-address")
    func portInUse() throws {
        let first = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        #expect { try RedirectListener(host: "127.0.0.1", port: first.port, peers: ProcNetTCPPeerLookup()) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument && ($0 as? AuthError)?.message.names(input: .listenAddress) == true
                && ($0 as? AuthError)?.portInUse == first.port
        }
    }

    @Test("a free port is the first preferred one a listener can bind, else the system's; never one in use")
    func freePort() throws {
        let port = try #require(RedirectListener.freePort())
        let listener = try RedirectListener(host: "127.0.0.1", port: port, peers: ProcNetTCPPeerLookup())
        #expect(listener.port == port)
        #expect(RedirectListener.freePort() != port)
        // The port in use is passed over for the next preferred one that is free.
        let next = try #require(RedirectListener.freePort())
        #expect(RedirectListener.freePort(preferring: [port, next]) == next)
        #expect(RedirectListener.freePort(preferring: [port]) != port)
    }

    @Test("a non-loopback address is refused", arguments: ["0.0.0.0", "192.168.1.10", "example.com"])
    func notLoopback(host: String) {
        #expect { try RedirectListener(host: host, port: 0, peers: ProcNetTCPPeerLookup()) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument
        }
    }

    @Test("the listener is closed after the timeout: the port no longer accepts connections")
    func closedAfterTimeout() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        let port = listener.port
        let clock = ManualClock()
        let deadline = clock.now().addingTimeInterval(300)
        clock.advance(by: 300)  // the listener's deadline is the injected clock's: no wall-clock wait
        await #expect {
            _ = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), until: deadline, clock: clock)
        } throws: {
            ($0 as? AuthError)?.code == .webContextCancelled
        }
        // Nothing listens there any more: a connection is refused. (Binding the port again
        // would race with any other test's client sockets, which may take it as theirs.)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected != 0 && errno == ECONNREFUSED)
    }
}
