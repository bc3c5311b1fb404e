#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every program authctl starts shares (the browser, `exec`'s command).
package enum Spawn {
    /// `posix_spawn` attributes for a child that starts with default signal handling and an
    /// empty signal mask: authctl ignores SIGINT itself (Ctrl-C cancels its work), and a
    /// child must not inherit that.
    package static func withDefaultSignals<T>(_ body: (inout posix_spawnattr_t) -> T) -> T {
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
        return body(&attributes)
    }

    /// Waits for `pid` to end (through EINTR) and returns its exit status as a shell reports
    /// it: the status it exited with, or 128 + N when signal N ended it.
    package static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
