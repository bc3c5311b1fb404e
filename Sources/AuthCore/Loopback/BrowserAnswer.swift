import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser's request that ended the wait for the redirect, kept open until the outcome
/// of the sign-in is known (SPEC §3 step 8: after the code exchange and the ID-token
/// checks), so that the page the person sees tells the truth. The flow answers it once;
/// whoever has not answered by the deadline gets the page the state machine chose, so the
/// browser is never left waiting.
public final class BrowserAnswer: Sendable {
    /// The connection, until it is answered.
    private let connection: Mutex<Int32?>

    /// How long the browser may wait for the outcome: a code exchange and a key fetch take
    /// well under a second; a browser shows its spinner far longer than this.
    public static let deadline: Double = 10

    init(fd: Int32, fallback: ListenerResponse, after seconds: Double = deadline) {
        connection = Mutex(fd)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in answer(fallback) }
    }

    /// Writes `response` and closes the connection. Only the first call does anything.
    public func answer(_ response: ListenerResponse) {
        let taken = connection.withLock { fd -> Int32? in
            defer { fd = nil }
            return fd
        }
        guard let fd = taken else { return }
        RedirectListener.write(response.bytes, to: fd)
        _ = close(fd)
    }

    /// True once the browser has had its page.
    public var isAnswered: Bool { connection.withLock { $0 == nil } }
}
