/// Opens the sign-in's start URL for the person signing in.
public protocol BrowserLauncher: Sendable {
    /// Starts the browser. True when it started and did not fail within a second (a browser
    /// launcher returns at once; a command that cannot work fails fast); false when nothing
    /// could be started or it failed. The listener is already serving meanwhile; on false
    /// the caller prints the URL and keeps waiting (docs/authctl.1).
    func open(_ url: URL) async -> Bool
    /// The same browser, started without the variables `configured` (those the configuration
    /// reads secrets from) besides `ChildEnvironment.secretVariables`.
    func hiding(_ configured: Set<String>) -> any BrowserLauncher
    /// Starts the browser as `open` does, and says how that went (a browser command that
    /// failed, with its exit status).
    func launch(_ url: URL) async -> BrowserLaunch
    /// Starts the browser as `launch` does and, when what started is a browser command that
    /// stays until its browser is done (`--browser-command`, `AUTHCTL_BROWSER`, `$BROWSER`),
    /// gives the way to wait for its end: a text browser that exits having shown nothing
    /// leaves the person a new start URL (docs/sign-in.md step 3).
    func launchWatching(_ url: URL) async -> BrowserStart
}

extension BrowserLauncher {
    /// A launcher that starts nothing of its own has nothing to hide.
    public func hiding(_ configured: Set<String>) -> any BrowserLauncher { self }

    /// Starts the browser and says how that went: a launcher that knows no more than `open`
    /// says opened or not.
    public func launch(_ url: URL) async -> BrowserLaunch { await open(url) ? .opened : .notOpened }

    /// A launcher that knows no more than `launch` has nothing to watch.
    public func launchWatching(_ url: URL) async -> BrowserStart { BrowserStart(launch: await launch(url)) }
}

/// How starting the browser went, and the end of the browser command when there is one to watch.
public struct BrowserStart: Sendable {
    public var launch: BrowserLaunch
    /// Returns once the browser command has exited, or at once when the waiting task is
    /// cancelled; nil when nothing is watched (no command, or one that failed).
    public var exited: (@Sendable () async -> Void)?

    public init(launch: BrowserLaunch, exited: (@Sendable () async -> Void)? = nil) {
        self.launch = launch
        self.exited = exited
    }
}

/// How starting the browser went, as a value (the executable words it).
public enum BrowserLaunch: Sendable, Equatable {
    /// It started and did not fail within a second.
    case opened
    /// Nothing was opened, and nothing failed that the person chose (`--no-browser`, no display).
    case notOpened
    /// The person's browser command could not be started (`program` not found or not executable).
    case commandNotStarted(program: String)
    /// The person's browser command exited with `status` (not 0) within a second.
    case commandFailed(program: String, status: Int32)

    public var opened: Bool { self == .opened }
}

/// `--no-browser`: never opens anything.
public struct NoBrowserLauncher: BrowserLauncher {
    public init() {}
    public func open(_ url: URL) async -> Bool { false }
}
