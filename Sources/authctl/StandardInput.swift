import AuthCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Reads stdin so that Ctrl-C ends the wait at once: main.swift turns SIGINT into task
/// cancellation, which a blocking `read` never sees, so these wait with poll(2) in short
/// slices and check the task's cancellation between them. Reads are bounded.
enum StandardInput {
    /// The input went past `limit` bytes.
    struct TooLarge: Error {}

    /// How long one poll(2) waits before cancellation is checked again.
    static let slice: Int32 = 50

    /// Everything until the end of input, at most `limit` bytes. Throws `CancellationError`
    /// (Ctrl-C) or `TooLarge` — without reading the rest.
    static func readToEnd(limit: Int) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = try readSome(&buffer, upTo: min(buffer.count, limit + 1 - data.count))
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit { throw TooLarge() }
        }
    }

    /// One line without its line ending (`\n` or `\r\n`); nil at the end of input with
    /// nothing read. Reads a byte at a time so that nothing after the line is consumed.
    static func readLine(limit: Int) throws -> String? {
        var line: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 1)
        while true {
            if try readSome(&byte, upTo: 1) == 0 {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
            if byte[0] == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line.append(byte[0])
            if line.count > limit { throw TooLarge() }
        }
    }

    /// Waits until stdin has data (or its end), checking for cancellation every `slice`
    /// milliseconds, then reads at most `upTo` bytes; 0 at the end of input.
    private static func readSome(_ buffer: inout [UInt8], upTo: Int) throws -> Int {
        while true {
            try Task.checkCancellation()
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, slice)
            if ready < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return 0
            }
            if ready == 0 { continue }
            if descriptor.revents & Int16(POLLNVAL) != 0 { return 0 }
            try Task.checkCancellation()
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, max(upTo, 1)) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return 0
            }
            return count
        }
    }
}
