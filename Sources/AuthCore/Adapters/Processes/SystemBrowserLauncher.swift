/// The user's browser without `--browser-command`: each command of `$BROWSER` (a
/// `:`-separated list, as xdg-utils and Python's webbrowser read it) in turn until one
/// works, then the desktop's default — `xdg-open` on Linux (only with a display), `open` on
/// macOS.
public struct SystemBrowserLauncher: BrowserLauncher {
    let environment: [String: String]
    /// The variables the configuration reads secrets from, kept from the browser.
    let configuredSecrets: Set<String>

    public init(environment: [String: String], configuredSecrets: Set<String> = []) {
        self.environment = environment
        self.configuredSecrets = configuredSecrets
    }

    public func hiding(_ configured: Set<String>) -> any BrowserLauncher {
        SystemBrowserLauncher(environment: environment, configuredSecrets: configuredSecrets.union(configured))
    }

    /// `command`, started with the environment without its secrets.
    func command(_ command: String) -> CommandBrowserLauncher {
        CommandBrowserLauncher(command: command, environment: ChildEnvironment(scrubbing: environment, configured: configuredSecrets))
    }

    public func open(_ url: URL) async -> Bool { await launchWatching(url).launch.opened }

    /// A command of `$BROWSER` is watched (a text browser stays until it is done); the
    /// desktop's default is not: it hands the URL to a browser that shows it, and exits.
    public func launchWatching(_ url: URL) async -> BrowserStart {
        for command in (environment["BROWSER"] ?? "").split(separator: ":") where !command.allSatisfy(\.isWhitespace) {
            let started = await self.command(String(command)).launchWatching(url)
            if started.launch.opened { return started }
        }
        return BrowserStart(launch: await desktopDefault(url) ? .opened : .notOpened)
    }

    private func desktopDefault(_ url: URL) async -> Bool {
        #if os(macOS)
            return await command("open").open(url)
        #else
            // Without a display there is no browser to open; print the URL instead.
            guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return false }
            return await command("xdg-open").open(url)
        #endif
    }
}
