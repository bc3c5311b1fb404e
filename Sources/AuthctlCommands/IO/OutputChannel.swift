/// Where a command writes: the process's stdout or stderr, or a test's buffer.
public protocol OutputChannel: Sendable {
    /// True when a person reads it on a terminal (isatty): tables are aligned, colours allowed.
    var isTerminal: Bool { get }
    /// Writes all of `bytes`. Throws when they cannot be written (the reader went away);
    /// most output ignores that, `git-credential` reports it.
    func write(_ bytes: [UInt8]) throws
}

extension OutputChannel {
    /// Writes `text`, dropping a failure (a closed pipe), as the process always did.
    func print(_ text: String) { try? write(Array(text.utf8)) }
}
