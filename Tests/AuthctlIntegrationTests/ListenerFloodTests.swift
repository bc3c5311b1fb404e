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
        let listener = try RedirectListener(host: "127.0.0.1", port: 0)
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
                    while held.count < 16 { held.append(FloodRaw.connect(port: port)) }
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
        // connection of theirs reaches another test's listener on a recycled port.
        defer {
            stop.set()
            finished.wait()
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let outcome = Task {
            let redirect = try await listener.waitForRedirect(
                CallbackStateMachine(expectation: .init(path: "/callback", state: "s", issuer: "x")), timeout: 40)
            redirect.browser.answer(.text(status: 200, "done"))
            return redirect.outcome
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let (status, _) = try await FloodRaw.request("GET /callback?code=c&state=s", port: port)
        #expect(status == 200)
        #expect(try await outcome.value == .authorized(AuthorizationResponse(code: "c")))
    }
}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Raw loopback TCP, as a hostile or a plain client would speak it.
enum FloodRaw {
    static func connect(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { usleep(1000) }  // refused: the caller sees a dead socket and retries, not in a tight loop
        return fd
    }

    /// Sends one request line and reads the whole answer: (status, body).
    static func request(_ line: String, port: UInt16) async throws -> (Int, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let fd = connect(port: port)
                defer { close(fd) }
                var timeout = timeval(tv_sec: 30, tv_usec: 0)  // a loaded machine may take a while to schedule the listener
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let request = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                var answer: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count <= 0 { break }
                    answer += buffer[0..<count]
                }
                let text = String(decoding: answer, as: UTF8.self)
                let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
                continuation.resume(returning: (status, body))
            }.start()
        }
    }
}
