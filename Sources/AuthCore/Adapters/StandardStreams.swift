#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to standard output and standard error with `write(2)` (FoundationEssentials has
/// no `FileHandle`): the whole buffer, again after an interrupted or partial write. A
/// failed write (a closed pipe) is dropped, as `FileHandle.write` dropped it.
package enum StandardStreams {
    package static func writeOutput(_ bytes: some Sequence<UInt8>) { write(Array(bytes), to: STDOUT_FILENO) }
    package static func writeError(_ bytes: some Sequence<UInt8>) { write(Array(bytes), to: STDERR_FILENO) }
    package static func writeOutput(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }
    package static func writeError(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    private static func write(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
