import AuthCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that counts the connections it accepts and closes each one
/// at once: a stand-in for an HTTP proxy that must never be used (a request through it
/// fails, and the count shows it was tried).
public final class CountingListener: @unchecked Sendable {
    public let port: UInt16
    private let fd: Int32
    private let lock = NSLock()
    private var accepted = 0
    private var stopped = false

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw AuthError.internalError("test listener could not bind")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, as a proxy variable holds it.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    public var connections: Int { lock.withLock { accepted } }

    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            lock.withLock { accepted += 1 }
            close(client)
        }
    }
}
