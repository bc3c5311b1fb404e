#if canImport(Glibc)
    import Glibc
#endif

/// The child that the catchable signals authctl receives are passed on to (0: none yet, or
/// no longer). Read by the signal handler, so a plain word.
nonisolated(unsafe) private var signalTarget: pid_t = 0
/// A signal that came while the child was being started, passed on once it runs.
nonisolated(unsafe) private var signalPending: Int32 = 0

/// The real child process, started with `posix_spawnp` (so `PATH` finds the command),
/// sharing authctl's stdin, stdout and stderr. authctl ignores SIGINT itself (Ctrl-C
/// cancels its work instead); the child starts with default signal handling and an empty
/// signal mask, so Ctrl-C reaches and stops it as usual. A cancelled task sends the child
/// SIGINT.
///
/// Every other catchable signal that would end authctl (SIGHUP, SIGTERM, SIGQUIT, SIGPIPE,
/// SIGUSR1, SIGUSR2, SIGALRM) is passed on to the child instead: authctl lives on until the
/// child ends, so that it can remove the token file and exit with the child's status. Once
/// the child has ended they are ignored (authctl is then cleaning up and exiting).
public struct SystemChildProcessRunner: ChildProcessRunner {
    /// The signals passed on to the child.
    static let forwarded: [Int32] = [SIGHUP, SIGTERM, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM]

    public init() {}

    public func run(_ arguments: [String], environment: ChildEnvironment) async throws -> Int32 {
        // The handlers go in before the child starts: a signal that came in between would
        // otherwise end authctl and leave the token file behind.
        Self.installForwarding()
        let pid = try Self.spawn(arguments, environment: environment)
        signalTarget = pid
        let early = signalPending
        if early != 0 { kill(pid, early) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
                DetachedThread.start {
                    let status = Spawn.wait(for: pid)
                    signalTarget = 0  // reaped: its pid may be reused
                    continuation.resume(returning: status)
                }
            }
        } onCancel: {
            kill(pid, SIGINT)
        }
    }

    /// Installs the handler that passes the `forwarded` signals on to `signalTarget`, or
    /// keeps one for later while there is no child yet. `kill` is async-signal-safe; the
    /// handler reads and writes one word.
    static func installForwarding() {
        signalTarget = 0
        signalPending = 0
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let target = signalTarget
            if target > 0 { kill(target, signal) } else { signalPending = signal }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in forwarded { sigaction(signal, &action, nil) }
    }

    static func spawn(_ arguments: [String], environment: ChildEnvironment) throws -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.entries.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = Spawn.withDefaultSignals { attributes in posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp) }
        guard result == 0 else { throw Self.startFailure(arguments[0], errno: result) }
        return pid
    }

    /// Why `program` could not be started, as a shell reports it: 127 when it does not exist
    /// (or no directory of `PATH` holds it), 126 when it exists but cannot be run.
    static func startFailure(_ program: String, errno code: Int32) -> AuthError {
        let shown = Sanitize.text(program, limit: 80)
        let reason = String(cString: strerror(code))
        let details: [String: JSONValue] = ["program": .string(shown), "errno": .number(Double(code))]
        if code == ENOENT || code == ENOTDIR {
            return program.contains("/")
                ? .commandNotFound("cannot run '\(shown)': not found (\(reason)). Check the path", details: details)
                : .commandNotFound(
                    "cannot run '\(shown)': not found in any directory of PATH. Check its name, that it is installed, and PATH",
                    details: details)
        }
        if code == EACCES || code == EPERM {
            return .commandNotExecutable(
                "cannot run '\(shown)': not executable (\(reason)). Check its permissions (chmod +x) and that it is not a directory",
                details: details)
        }
        return .commandNotExecutable("cannot run '\(shown)': \(reason). Check that it is a program this system can run", details: details)
    }
}
