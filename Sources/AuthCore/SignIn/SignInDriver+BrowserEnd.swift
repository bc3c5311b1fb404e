import Synchronization

/// The wait for the redirect beside a watched browser command (docs/sign-in.md step 3): the
/// first of the two to come is the session's next input.
extension SignInDriver {
    enum Arrival: Sendable {
        case redirect(ReceivedRedirect)
        /// The browser command exited first; the wait for the redirect goes on (`Held.pendingRedirect`).
        case browserEnded
    }

    /// The redirect, or the browser command's end when that comes first (watched once).
    func arrival(_ receiver: any RedirectReceiver, _ held: inout Held) async throws -> Arrival {
        guard let exited = held.browserExited else {
            guard let pending = held.pendingRedirect else { return .redirect(try await receiver.redirect()) }
            return .redirect(try await Self.value(of: pending))
        }
        held.browserExited = nil
        let pending = held.pendingRedirect ?? Task { try await receiver.redirect() }
        held.pendingRedirect = pending
        return try await Self.first(pending, orEnd: exited)
    }

    /// The task's value; Ctrl-C cancels the task too (a task is not cancelled with its awaiter).
    static func value(of pending: Task<ReceivedRedirect, any Error>) async throws -> ReceivedRedirect {
        try await withTaskCancellationHandler {
            try await pending.value
        } onCancel: {
            pending.cancel()
        }
    }

    /// Whichever comes first; the redirect's wait is never cancelled by the end winning.
    static func first(_ pending: Task<ReceivedRedirect, any Error>, orEnd exited: @escaping @Sendable () async -> Void)
        async throws -> Arrival
    {
        let watcher = Task { await exited() }
        defer { watcher.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Arrival, any Error>, Never>) in
                let once = ResumeOnce(continuation)
                Task {
                    do { once.resume(.success(.redirect(try await pending.value))) } catch { once.resume(.failure(error)) }
                }
                Task {
                    await watcher.value
                    once.resume(.success(.browserEnded))
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }
}

/// A continuation resumed by the first of its callers; the others are ignored.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: Value) {
        continuation.withLock { pending in
            pending?.resume(returning: value)
            pending = nil
        }
    }
}
