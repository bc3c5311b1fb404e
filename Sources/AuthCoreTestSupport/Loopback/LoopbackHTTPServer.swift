import AuthCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: one request per connection, handled on
/// its own thread by a closure. Good enough for a fake provider; not for production.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (ReceivedRequest) -> HTTPResponse

    public let port: UInt16
    private let fd: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var stopped = false

    public init(handler: @escaping Handler) throws {
        self.handler = handler
        (fd, port) = try Self.listeningSocket()
        Self.registry.withLock { $0[port] = handler }
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    /// A socket listening on 127.0.0.1 at an ephemeral port (the fakes' and the test
    /// proxy's): its descriptor and the port.
    static func listeningSocket() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw AuthError.internalError("a test server could not bind 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    deinit { stop() }

    /// The handler of every running server by port, for `InMemoryNetwork`.
    private static let registry = Mutex<[UInt16: Handler]>([:])

    /// The handler of the server on 127.0.0.1:`port`, if one of this process runs there.
    static func handler(onPort port: Int) -> Handler? {
        guard let port = UInt16(exactly: port) else { return nil }
        return registry.withLock { $0[port] }
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A response header that makes the server send no `Content-Length` (the body ends
    /// when the connection closes, as HTTP/1.0 servers do); not sent itself.
    public static let omitContentLength = "X-Test-Omit-Content-Length"

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        Self.registry.withLock { _ = $0.removeValue(forKey: port) }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func acceptLoop() {
        while !isStopped {
            let client = accept(fd, nil, nil)
            if client < 0 { if isStopped { return } else { continue } }
            let handler = self.handler
            Thread {
                Self.serve(client, handler: handler)
            }.start()
        }
    }

    private static func serve(_ client: Int32, handler: Handler) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var parser = HTTPRequestParser()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            switch parser.append(buffer[0..<count]) {
            case .needMore: continue
            case .invalid: return
            case .complete(let request):
                let response = handler(request)
                let delimitedByClose = response.headers[omitContentLength] != nil
                var head = "HTTP/1.1 \(response.status) X\r\n"
                if !delimitedByClose { head += "Content-Length: \(response.body.count)\r\n" }
                head += "Connection: close\r\n"
                for (name, value) in response.headers where name != omitContentLength { head += "\(name): \(value)\r\n" }
                let bytes = Array((head + "\r\n").utf8) + Array(response.body)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if written <= 0 { return }
                    offset += written
                }
                return
            }
        }
    }
}
