/// The source of the current time, and of waiting. Nothing in AuthCore but `SystemClock` calls `Date()`,
/// `ContinuousClock` or sleeps on its own; it asks a `Clock`, so that every deadline of a
/// sign-in (the redirect's, the device flow's polls, the browser's page) follows the clock
/// a test injects.
public protocol Clock: Sendable {
    func now() -> Date
    /// Waits `seconds` (the device flow's polling interval). Throws `CancellationError`
    /// when the task is cancelled (Ctrl-C).
    func sleep(for seconds: TimeInterval) async throws
    /// Waits until `deadline` on this clock (at once when it has passed). Throws
    /// `CancellationError` when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

extension Clock {
    public func sleep(for seconds: TimeInterval) async throws {
        // Never a trapping conversion: NaN waits not at all, and anything past a year (∞
        // included) waits a year, which only Ctrl-C or the caller's deadline ends.
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 366 * 86_400)
        try await Task.sleep(for: .milliseconds(Int64(bounded * 1000)))
    }

    public func sleep(until deadline: Date) async throws {
        try await sleep(for: deadline.timeIntervalSince(now()))
    }
}
