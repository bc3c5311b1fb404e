import Foundation

/// The source of the current time. Nothing below `Flows/` calls `Date()`; it asks a `Clock`.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}
