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
        let listener = try RedirectListener(host: host, port: 0)
        #expect(listener.port > 0)
        let literal = host.contains(":") ? "[\(host)]" : host
        deliver("http://\(literal):\(listener.port)/callback?code=c&state=s")
        let outcome = try await listener.waitForRedirect(
            CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "https://idp.example")), timeout: 5)
        #expect(outcome == .authorized(AuthorizationResponse(code: "c")))
    }

    @Test("a port in use is a clear invalid-argument naming --listen-address")
    func portInUse() throws {
        let first = try RedirectListener(host: "127.0.0.1", port: 0)
        #expect { try RedirectListener(host: "127.0.0.1", port: first.port) } throws: {
            ($0 as? AuthError)?.code == .invalidArgument && ($0 as? AuthError)?.message.contains("--listen-address") == true
        }
    }

    @Test("a non-loopback address is refused", arguments: ["0.0.0.0", "192.168.1.10", "example.com"])
    func notLoopback(host: String) {
        #expect { try RedirectListener(host: host, port: 0) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
    }

    @Test("the listener is closed after the timeout: the port no longer accepts connections")
    func closedAfterTimeout() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        await #expect {
            _ = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), timeout: 0.3)
        } throws: {
            ($0 as? AuthError)?.code == .webContextCancelled
        }
        let reopened = try RedirectListener(host: "127.0.0.1", port: port)
        #expect(reopened.port == port)
    }
}
