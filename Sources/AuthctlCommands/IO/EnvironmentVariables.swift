import AuthCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment variables of an `AuthctlIO`: a dictionary a test gives, or the process's
/// own. The process's are made into a dictionary only when a command asks for all of them
/// (`AuthctlIO.environment`); one variable (`AuthctlIO.variable`) is read with `getenv`
/// until then. Building the dictionary cost the token hot path about a fifth of its
/// instructions (bench/README.md, issue 24): the first `[String: String]` makes the Swift
/// runtime instantiate its storage's metadata and search the binary's protocol conformances.
enum EnvironmentVariables: Sendable {
    case given([String: String])
    case process(ProcessEnvironment)

    var all: [String: String] {
        switch self {
        case .given(let variables): variables
        case .process(let process): process.all
        }
    }

    func value(_ name: String) -> String? {
        switch self {
        case .given(let variables): variables[name]
        case .process(let process): process.value(name)
        }
    }
}

/// The process's environment, as a dictionary once asked (then kept: every later read sees
/// that snapshot, as every read did when it was built at start-up).
final class ProcessEnvironment: Sendable {
    private let snapshot = Mutex<[String: String]?>(nil)

    var all: [String: String] {
        snapshot.withLock { snapshot in
            if let snapshot { return snapshot }
            let variables = ProcessInfo.processInfo.environment
            snapshot = variables
            return variables
        }
    }

    /// One variable, as `all` would give it: authctl never changes its own environment, so
    /// `getenv` reads what `ProcessInfo` reads (and the snapshot, once there is one).
    func value(_ name: String) -> String? {
        if let snapshot = snapshot.withLock({ $0 }) { return snapshot[name] }
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}

/// The desktop's browser (`SystemBrowserLauncher`) with the process's environment, which is
/// read when a browser is started, not when the I/O is made.
struct ProcessBrowserLauncher: BrowserLauncher {
    let environment: ProcessEnvironment

    func open(_ url: URL) async -> Bool {
        await SystemBrowserLauncher(environment: environment.all).open(url)
    }

    func launchWatching(_ url: URL) async -> BrowserStart {
        await SystemBrowserLauncher(environment: environment.all).launchWatching(url)
    }

    func hiding(_ configured: Set<String>) -> any BrowserLauncher {
        SystemBrowserLauncher(environment: environment.all).hiding(configured)
    }
}
