import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program that authctl does not wait for (the browser launcher), with
/// `posix_spawn` as Foundation's `Process` started it: standard input and output on
/// `/dev/null`, standard error shared, the environment authctl's without its secrets
/// (`ChildEnvironment`), default signal handling and an empty signal mask (authctl ignores SIGINT; the child must not). A thread reaps it when
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

        /// Returns once the program has ended, or once the waiting task is cancelled.
        package func ended() async {
            while status.withLock({ $0 }) == nil, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Returns nil when the program could not be started.
    package static func launch(executable: String, arguments: [String], environment: ChildEnvironment) -> Exit? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.entries.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let started = Spawn.withDefaultSignals { attributes in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        guard started == 0 else { return nil }
        let child = pid
        let exit = Exit()
        DetachedThread.start { exit.set(Spawn.wait(for: child)) }
        return exit
    }
}
