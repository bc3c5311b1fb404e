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
}

extension BrowserLauncher {
    /// A launcher that starts nothing of its own has nothing to hide.
    public func hiding(_ configured: Set<String>) -> any BrowserLauncher { self }

    /// Starts the browser and says how that went: a launcher that knows no more than `open`
    /// says opened or not.
    public func launch(_ url: URL) async -> BrowserLaunch { await open(url) ? .opened : .notOpened }
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
