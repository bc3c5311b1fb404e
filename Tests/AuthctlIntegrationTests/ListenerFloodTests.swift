import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback listener under a flood of idle connections: real sockets, real threads and
/// the wall clock, so it runs here rather than among the core's tests, which use none.
@Suite("The sign-in listener under a flood of idle connections")
struct ListenerFloodTests {
    @Test("64 idle connections that keep coming back do not keep the browser's redirect out")
    func starvation() async throws {
        let listener = try RedirectListener(host: "127.0.0.1", port: 0, peers: ProcNetTCPPeerLookup())
        let port = listener.port
        let stop = StopFlag()
        // An attacker (or a confused program) of the same user: 64 connections that send
        // nothing, reconnecting as soon as one is closed.
        let finished = DispatchGroup()
        let holders = (0..<4).map { _ in
            finished.enter()
            return Thread {
                defer { finished.leave() }
                var held: [Int32] = []
                while !stop.isSet {
                    while held.count < 16 { held.append(RawLoopbackClient.connect(port: port)) }
                    usleep(20_000)
                    // Replace the ones the listener closed.
                    held = held.filter { fd in
                        var byte: UInt8 = 0
                        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
                        if count == 0 || (count < 0 && errno != EAGAIN) { close(fd); return false }
                        return true
                    }
                }
                for fd in held { close(fd) }
            }
        }
        for thread in holders { thread.start() }
        // The holders stop (and close every socket) before the test ends, so that no
        // connection of theirs reaches another test's listener on a recycled port; the wait
        // for them is off the concurrency pool (OffPool).
        var failure: (any Error)?
        do {
            try await Task.sleep(nanoseconds: 300_000_000)
            let outcome = Task {
                let redirect = try await listener.waitForRedirect(
                    CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")),
                    until: Date().addingTimeInterval(40), clock: SystemClock())
                redirect.browser.answer(.text(status: 200, "done"))
                return redirect.outcome
            }
            try await Task.sleep(nanoseconds: 300_000_000)
            let (status, _) = try await RawLoopbackClient.request("GET /callback?code=c&state=s", port: port)
            #expect(status == 200)
            #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")))
        } catch { failure = error }
        stop.set()
        await OffPool.run { finished.wait() }
        if let failure { throw failure }
    }
}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
