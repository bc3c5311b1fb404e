import Foundation

/// The source of the current time, and of waiting. Nothing below `Flows/` calls `Date()`
/// or sleeps on its own; it asks a `Clock`.
public protocol Clock: Sendable {
    func now() -> Date
    /// Waits `seconds` (the device flow's polling interval). Throws `CancellationError`
    /// when the task is cancelled (Ctrl-C).
    func sleep(for seconds: TimeInterval) async throws
}

extension Clock {
    public func sleep(for seconds: TimeInterval) async throws {
        try await Task.sleep(for: .milliseconds(Int64(max(seconds, 0) * 1000)))
    }
}

/// The wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}
