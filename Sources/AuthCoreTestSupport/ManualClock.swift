import AuthCore
import Foundation

/// A virtual clock that stands still until the test advances it: a `sleep(until:)` returns
/// only once `advance` has moved the time to its deadline (or the task is cancelled), so a
/// test decides exactly when a deadline passes, and no test waits on the wall clock.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var sleepers: [(id: Int, deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    public init(_ date: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = date }

    public func now() -> Date { lock.withLock { current } }

    /// How many waits are pending: a test advances once the code under test has begun to wait.
    public var waiting: Int { lock.withLock { sleepers.count } }

    /// Moves the time forward and wakes every sleeper whose deadline it reached.
    public func advance(by seconds: TimeInterval) {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = current.addingTimeInterval(seconds)
            let due = sleepers.filter { !($0.deadline > current) }
            sleepers.removeAll { !($0.deadline > current) }
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    public func sleep(for seconds: TimeInterval) async throws {
        try await sleep(until: now().addingTimeInterval(seconds.isNaN ? 0 : seconds))
    }

    public func sleep(until deadline: Date) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = lock.withLock { () -> Bool? in
                    if Task.isCancelled { return nil }
                    if !(deadline > current) { return true }
                    sleepers.append((id, deadline, continuation))
                    return false
                }
                switch resumeNow {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Waits (yielding, never sleeping) until the code under test has begun `count` waits.
    public func untilWaiting(_ count: Int = 1) async {
        while waiting < count { await Task.yield() }
    }
}
