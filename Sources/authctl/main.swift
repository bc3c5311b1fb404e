import AuthctlCommands
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The executable: the process's I/O, the command layer's one entry point
// (`AuthctlInvocation`), its exit status. Ctrl-C cancels the running command (a sign-in's
// listener closes: exit 5; any other wait: exit 130).

signal(SIGINT, SIG_IGN)
let invocation = AuthctlInvocation(arguments: Array(CommandLine.arguments.dropFirst()), io: .process())
// The token hot path, before any Task, Dispatch source or thread exists (starting Swift
// concurrency costs about a millisecond, bench/README.md): a cached token that answers the
// request is printed and that is all.
if let status = invocation.finishWithoutConcurrency() { exit(status) }
// The Ctrl-C source is listening before the command starts: a Ctrl-C typed as soon as a
// prompt shows (the keystore's passphrase) must not fall in between and be ignored.
let interrupted = Interrupted()
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
// `@Sendable`: the handler runs on a Dispatch queue, not on the main actor of this top-level
// code (without it the Swift 6 runtime traps on the isolation check).
interrupt.setEventHandler { @Sendable in interrupted.interrupt() }
interrupt.resume()
let work = Task { await invocation.run() }
interrupted.cancelling(work)
exit(await work.value)

/// Cancels the command's task on Ctrl-C, also one that came before the task was there.
final class Interrupted: Sendable {
    private let state = Mutex<(task: Task<Int32, Never>?, interrupted: Bool)>((nil, false))

    func interrupt() {
        state.withLock {
            $0.interrupted = true
            $0.task?.cancel()
        }
    }

    func cancelling(_ task: Task<Int32, Never>) {
        state.withLock {
            $0.task = task
            if $0.interrupted { task.cancel() }
        }
    }
}
