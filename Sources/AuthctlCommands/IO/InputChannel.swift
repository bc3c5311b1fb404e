import AuthCore
import Synchronization

/// Where a command reads what a person types or pipes in: the process's stdin, or a test's
/// pipe. Reads must end at once when the task is cancelled (Ctrl-C turns into task
/// cancellation, which a blocking `read` never sees).
public protocol InputChannel: Sendable {
    /// True when a person types on a terminal (isatty).
    var isTerminal: Bool { get }
    /// Waits until input is there (or its end), then returns at most `count` bytes; empty at
    /// the end of input. Throws `CancellationError` when the task is cancelled meanwhile.
    func read(upTo count: Int) throws -> [UInt8]
    /// Runs `body` with the terminal's echo off (a passphrase typed at a prompt); a channel
    /// that is no terminal just runs it.
    func withoutEcho<T>(_ body: () throws -> T) rethrows -> T
}

extension InputChannel {
    public func withoutEcho<T>(_ body: () throws -> T) rethrows -> T { try body() }
}

/// The cancellation of a read that runs on a thread of its own (`readLineOffPool`), where
/// `Task.isCancelled` cannot see the waiting task: channels check it between their waits.
final class ReadCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    var isSet: Bool { cancelled.load(ordering: .acquiring) }
    func set() { cancelled.store(true, ordering: .releasing) }

    /// The read's cancellation, bound on the reading thread.
    @TaskLocal static var current: ReadCancellation?

    /// True when the task, or the task waiting for this thread's read, is cancelled.
    static var isCancelled: Bool { Task.isCancelled || current?.isSet == true }
}

/// The input went past the limit its reader set.
struct InputTooLarge: Error {}

extension InputChannel {
    /// Everything until the end of input, at most `limit` bytes. Throws `CancellationError`
    /// (Ctrl-C) or `InputTooLarge` — without reading the rest.
    func readToEnd(limit: Int) throws -> Data {
        var data = Data()
        while true {
            let bytes = try read(upTo: max(1, min(16_384, limit + 1 - data.count)))
            if bytes.isEmpty { return data }
            data.append(contentsOf: bytes)
            if data.count > limit { throw InputTooLarge() }
        }
    }

    /// `readLine` on a thread of its own: a person may take minutes to paste, and the few
    /// threads of Swift concurrency's pool must not wait with them (in-process tests run
    /// many commands on that pool at once). Cancelling the task ends the read.
    func readLineOffPool(limit: Int) async throws -> String? {
        let cancellation = ReadCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String?, any Error>) in
                DetachedThread.start {
                    continuation.resume(
                        with: Result { try ReadCancellation.$current.withValue(cancellation) { try readLine(limit: limit) } })
                }
            }
        } onCancel: {
            cancellation.set()
        }
    }

    /// One line without its line ending (`\n` or `\r\n`); nil at the end of input with
    /// nothing read. Reads a byte at a time so that nothing after the line is consumed.
    func readLine(limit: Int) throws -> String? {
        var line: [UInt8] = []
        while true {
            guard let byte = try read(upTo: 1).first else {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line.append(byte)
            if line.count > limit { throw InputTooLarge() }
        }
    }
}
