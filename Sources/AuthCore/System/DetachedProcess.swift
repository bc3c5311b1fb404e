import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program that authctl does not wait for (the browser launcher), with
/// `posix_spawn` as Foundation's `Process` started it: standard input and output on
/// `/dev/null`, standard error and the environment shared, default signal handling and an
/// empty signal mask (authctl ignores SIGINT; the child must not). A thread reaps it when
/// it ends, so that it never stays a zombie.
package enum DetachedProcess {
    /// How a started program ended, once it has: its exit status (128 + N for signal N).
    package final class Exit: Sendable {
        private let status = Mutex<Int32?>(nil)

        fileprivate func set(_ value: Int32) { status.withLock { $0 = value } }

        /// The exit status if the program ends within `seconds`, else nil (still running).
        package func status(within seconds: Double) async -> Int32? {
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, min(seconds, 60)) * 1000))
            while true {
                if let value = status.withLock({ $0 }) { return value }
                if ContinuousClock.now >= deadline { return nil }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Returns nil when the program could not be started.
    package static func launch(executable: String, arguments: [String]) -> Exit? {
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, argv, environ) == 0 else { return nil }
        let child = pid
        let exit = Exit()
        DetachedThread.start {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
            let signal = status & 0x7f
            exit.set(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }
        return exit
    }
}
