import AuthCore
import Foundation

/// Keeps every event a use case reports, in order.
public final class RecordingEvents: AuthEventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [AuthEvent] = []

    public init() {}

    public func report(_ event: AuthEvent) { lock.withLock { recorded.append(event) } }

    public var events: [AuthEvent] { lock.withLock { recorded } }
}
