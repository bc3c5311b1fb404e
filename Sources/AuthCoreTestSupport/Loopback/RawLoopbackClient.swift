import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Raw loopback TCP, as a hostile or a plain client would speak it.
public enum RawLoopbackClient {
    public static func connect(port: UInt16) -> Int32 {
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
    public static func request(_ line: String, port: UInt16) async throws -> (Int, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let fd = connect(port: port)
                defer { close(fd) }
                // A loaded machine may take a while to start the listener: its task waits for a thread of
                // the concurrency pool, which tests that block one (waitUntilExit) can hold for a minute.
                var timeout = timeval(tv_sec: 120, tv_usec: 0)
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
