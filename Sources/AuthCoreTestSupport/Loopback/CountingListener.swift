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
        (fd, port) = try LoopbackHTTPServer.listeningSocket()
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
