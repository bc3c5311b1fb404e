/// Where a streamed answer of `authctl request` goes (the command's stdout).
/// Called on the transfer's thread, in order; an error thrown (the reader went away) ends
/// the transfer and is thrown by `run` as it is.
public protocol ResponseSink: Sendable {
    /// The head of the answer whose body follows, once, before its first chunk (never the
    /// head of an answer that is sent again or stepped up).
    func head(_ head: HTTPResponseHead) throws
    /// The next chunk of the body, as it arrived.
    func body(_ chunk: Data) throws
}
