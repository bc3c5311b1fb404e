import Synchronization

/// The browser flow's receiver: the loopback `RedirectListener` (RFC 8252 §7.3), its
/// deadlines read from the injected clock.
public final class LoopbackRedirectReceiver: RedirectReceiver {
    private let listener: RedirectListener
    private let clock: any Clock
    private let waiting = Mutex<Task<RedirectListener.Redirect, any Error>?>(nil)

    public init(listener: RedirectListener, clock: any Clock) {
        self.listener = listener
        self.clock = clock
    }

    public var host: String { listener.host }
    public var port: UInt16 { listener.port }
    public var servesStartURL: Bool { true }
    public var startServed: Bool { listener.startServed }
    public func renewStart(to expectation: CallbackStateMachine.Expectation) -> Bool { listener.renewStart(to: expectation) }

    public func start(_ machine: CallbackStateMachine, redirectURI: URL, until deadline: Date, events: any AuthEventSink) {
        let listener = self.listener, clock = self.clock
        let task = Task {
            try await listener.waitForRedirect(machine, until: deadline, clock: clock) { event in
                switch event {
                case .refusedPeer(let owner): events.report(.refusedPeer(owner))
                }
            }
        }
        waiting.withLock { $0 = task }
    }

    public func redirect() async throws -> ReceivedRedirect {
        guard let task = waiting.withLock({ $0 }) else {
            throw AuthError.internalError("the sign-in listener was asked for a redirect before it started")
        }
        let redirect = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        return ReceivedRedirect(outcome: redirect.outcome, browser: redirect.browser)
    }

    public func close() {
        waiting.withLock { $0?.cancel() }
        listener.close()
    }
}
