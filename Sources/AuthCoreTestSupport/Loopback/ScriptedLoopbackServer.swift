import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server for one connection, whose answer is written by a script as it goes:
/// a head, a chunk, a wait, another chunk (the streaming tests of `CurlTransport`). The
/// request is read to the end of its headers first.
public final class ScriptedLoopbackServer: @unchecked Sendable {
    public let port: UInt16
    private let fd: Int32

    /// The accepted connection, as the script sees it.
    public struct Connection: Sendable {
        let fd: Int32

        /// Writes all of `text`; false once the client has gone (the write failed).
        @discardableResult
        public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        @discardableResult
        public func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Starts listening; `script` runs on its own thread with the first connection, which is
    /// closed when it returns. The server lives at least until that connection came (the
    /// thread holds it), however early its test lets go of it.
    public init(script: @escaping @Sendable (Connection) -> Void) throws {
        (fd, port) = try LoopbackHTTPServer.listeningSocket()
        Thread { [self] in
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                received += buffer[0..<count]
                // The end of the headers may sit inside what was read (no body is sent).
                if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
            }
            script(Connection(fd: client))
        }.start()
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
