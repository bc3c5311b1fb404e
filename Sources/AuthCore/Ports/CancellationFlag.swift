import Synchronization

/// A flag set from a task's cancellation handler (Ctrl-C) and read by blocking work on a
/// thread of its own (`DetachedThread`: the listener's poll loop, a libcurl transfer), which
/// cannot see the task's cancellation itself.
final class CancellationFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
