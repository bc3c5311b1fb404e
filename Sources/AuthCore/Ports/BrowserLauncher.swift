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
}

extension BrowserLauncher {
    /// A launcher that starts nothing of its own has nothing to hide.
    public func hiding(_ configured: Set<String>) -> any BrowserLauncher { self }
}

/// `--no-browser`: never opens anything.
public struct NoBrowserLauncher: BrowserLauncher {
    public init() {}
    public func open(_ url: URL) async -> Bool { false }
}
