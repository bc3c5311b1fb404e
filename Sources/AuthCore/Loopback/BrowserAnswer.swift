import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser's request that ended the wait for the redirect, kept open until the outcome
/// of the sign-in is known (docs/sign-in.md step 8: after the code exchange and the ID-token
/// checks), so that the page the person sees tells the truth. The flow answers it once;
/// whoever has not answered by the deadline gets the page the state machine chose, so the
/// browser is never left waiting.
public final class BrowserAnswer: Sendable {
    /// The connection, until it is answered.
    private let connection: Mutex<Int32?>
    /// The wait for the deadline, cancelled by the first answer.
    private let fallback = Mutex<Task<Void, Never>?>(nil)

    /// How long the browser may wait for the outcome: a code exchange and a key fetch take
    /// well under a second; a browser shows its spinner far longer than this.
    public static let deadline: Double = 10

    /// - Parameters:
    ///   - clock: the clock of the deadline (a test's virtual clock decides when it passes).
    ///   - seconds: from now on `clock`.
    init(fd: Int32, fallback page: ListenerResponse, clock: any Clock, after seconds: Double = deadline) {
        connection = Mutex(fd)
        let deadline = clock.now().addingTimeInterval(seconds)
        // Holds the answer until the deadline, so that a dropped one still answers the browser.
        let wait = Task { [self] in
            do { try await clock.sleep(until: deadline) } catch { return }  // cancelled: answered already
            answer(page)
        }
        fallback.withLock { $0 = wait }
    }

    /// Writes `response` and closes the connection. Only the first call does anything.
    public func answer(_ response: ListenerResponse) {
        let taken = connection.withLock { fd -> Int32? in
            defer { fd = nil }
            return fd
        }
        guard let fd = taken else { return }
        fallback.withLock { $0?.cancel() }
        RedirectListener.write(response.bytes, to: fd)
        _ = close(fd)
    }

    /// True once the browser has had its page.
    public var isAnswered: Bool { connection.withLock { $0 == nil } }
}
