/// Runs the command of `authctl exec` and, while it runs, keeps a private file current.
public protocol ChildProcessRunner: Sendable {
    /// Runs `arguments` (looked up on `PATH`) with `environment`; returns its exit status
    /// (128 + the signal number when a signal ended it). Cancelling the task interrupts it.
    func run(_ arguments: [String], environment: ChildEnvironment) async throws -> Int32
}
