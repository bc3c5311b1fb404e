import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether anything written to stdout was lost (a full disk, `> /dev/full`, a closed
/// descriptor): a command whose output did not get out must not end with status 0, since a
/// script that runs `authctl token > file` would take an empty file for a token.
/// (`request` reports a reader that went away itself: exit 141.)
final class StdoutFailures: Sendable {
    /// The errno of the first failed write; 0 while none failed.
    private let first = Atomic<Int32>(0)

    func record(_ error: any Error) {
        let code = (error as? FileDescriptorOutput.WriteFailed)?.errno ?? EIO
        _ = first.compareExchange(expected: 0, desired: code == 0 ? EIO : code, ordering: .relaxed)
    }

    /// The status to end with: `status`, or 1 with a message on stderr when the command
    /// would have succeeded but its output was lost.
    func status(_ status: Int32, stderr: any OutputChannel) -> Int32 {
        let code = first.load(ordering: .relaxed)
        guard status == 0, code != 0 else { return status }
        let reason = String(cString: strerror(code))
        stderr.print(
            "authctl: could not write the output to stdout (\(reason)), so the command did not succeed. "
                + "Free the space or write elsewhere, then run it again\n")
        return 1
    }
}

/// stdout, each failed write recorded in `failures` before it is thrown on.
struct RecordedOutput: OutputChannel {
    let base: any OutputChannel
    let failures: StdoutFailures

    var isTerminal: Bool { base.isTerminal }

    func write(_ bytes: [UInt8]) throws {
        do {
            try base.write(bytes)
        } catch {
            failures.record(error)
            throw error
        }
    }
}
