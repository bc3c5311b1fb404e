import AuthctlCommands
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The executable: the process's I/O, the command layer's one entry point
// (`AuthctlInvocation`), its exit status. Ctrl-C cancels the running command (the loopback
// listener closes; exit 5).

signal(SIGINT, SIG_IGN)
let invocation = AuthctlInvocation(arguments: Array(CommandLine.arguments.dropFirst()), io: .process())
// The token hot path, before any Task, Dispatch source or thread exists (starting Swift
// concurrency costs about a millisecond, bench/README.md): a cached token that answers the
// request is printed and that is all.
if let status = invocation.finishWithoutConcurrency() { exit(status) }
let work = Task { await invocation.run() }
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
// `@Sendable`: the handler runs on a Dispatch queue, not on the main actor of this top-level
// code (without it the Swift 6 runtime traps on the isolation check).
interrupt.setEventHandler { @Sendable in work.cancel() }
interrupt.resume()
exit(await work.value)
