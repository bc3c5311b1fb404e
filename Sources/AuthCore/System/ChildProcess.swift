import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the command of `authctl exec` and, while it runs, keeps a private file current.
public protocol ChildProcessRunner: Sendable {
    /// Runs `arguments` (looked up on `PATH`) with `environment`; returns its exit status
    /// (128 + the signal number when a signal ended it). Cancelling the task interrupts it.
    func run(_ arguments: [String], environment: [String: String]) async throws -> Int32
}

/// A private directory (0700) for files only this user may read, removed by `remove()`.
public struct PrivateDirectory: Sendable {
    public let path: String

    /// Under `$XDG_RUNTIME_DIR` when given (a per-user tmpfs), else the temporary directory.
    public static func create(under parent: String, random: any RandomSource) throws -> PrivateDirectory {
        let path = (parent.hasSuffix("/") ? parent : parent + "/") + "authctl-exec-" + random.base64URL(bytes: 9)
        guard mkdir(path, 0o700) == 0 else {
            throw AuthError.internalError("cannot create a private directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return PrivateDirectory(path: path)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The real child process, started with `posix_spawnp` (so `PATH` finds the command),
/// sharing authctl's stdin, stdout and stderr. authctl ignores SIGINT itself (Ctrl-C
/// cancels its work instead); the child starts with default signal handling and an empty
/// signal mask, so Ctrl-C and SIGTERM reach and stop it as usual. SIGTERM sent to authctl
/// and a cancelled task are passed on to the child.
public struct SystemChildProcessRunner: ChildProcessRunner {
    public init() {}

    public func run(_ arguments: [String], environment: [String: String]) async throws -> Int32 {
        let pid = try Self.spawn(arguments, environment: environment)
        let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        signal(SIGTERM, SIG_IGN)
        terminate.setEventHandler { kill(pid, SIGTERM) }
        terminate.resume()
        defer {
            terminate.cancel()
            signal(SIGTERM, SIG_DFL)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
                Thread {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
                    let signal = status & 0x7f
                    continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
                }.start()
            }
        } onCancel: {
            kill(pid, SIGINT)
        }
    }

    static func spawn(_ arguments: [String], environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        guard result == 0 else {
            throw AuthError.invalidArgument(
                "cannot run '\(Sanitize.text(arguments[0], limit: 80))': \(String(cString: strerror(result))). Check the command and PATH")
        }
        return pid
    }
}
