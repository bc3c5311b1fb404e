#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's stdout or stderr: write(2), the whole buffer, again after an interrupted or
/// partial write.
public struct FileDescriptorOutput: OutputChannel {
    public let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw WriteFailed(errno: errno) }
            rest = rest.dropFirst(written)
        }
    }

    /// write(2) failed with `errno`.
    public struct WriteFailed: Error {
        public let errno: Int32
        public init(errno: Int32) { self.errno = errno }
    }
}

/// The process's stdin, read so that Ctrl-C ends the wait at once: poll(2) in short slices,
/// the task's cancellation checked between them. Reads are bounded by the caller.
public struct FileDescriptorInput: InputChannel {
    public let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func withoutEcho<T>(_ body: () throws -> T) rethrows -> T {
        var saved = termios()
        guard isTerminal, tcgetattr(descriptor, &saved) == 0 else { return try body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(descriptor, TCSAFLUSH, &quiet)
        defer { _ = tcsetattr(descriptor, TCSAFLUSH, &saved) }
        return try body()
    }

    /// How long one poll(2) waits before cancellation is checked again, in milliseconds.
    static let slice: Int32 = 50

    public func read(upTo count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while true {
            if ReadCancellation.isCancelled { throw CancellationError() }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Self.slice)
            if ready < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return []
            }
            if ready == 0 { continue }
            if poller.revents & Int16(POLLNVAL) != 0 { return [] }
            if ReadCancellation.isCancelled { throw CancellationError() }
            let got = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return []
            }
            return Array(buffer[0..<got])
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, bytes, count)
    #else
        Darwin.read(descriptor, bytes, count)
    #endif
}
