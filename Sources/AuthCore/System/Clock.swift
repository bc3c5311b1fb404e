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
        // Saturating: a provider's absurd or non-finite interval never traps.
        try await Task.sleep(for: .milliseconds(seconds > 0 ? Int64(min(seconds, 1e9) * 1000) : 0))
    }
}

/// The wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}
