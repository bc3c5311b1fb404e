#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Opens the sign-in's start URL for the person signing in.
public protocol BrowserLauncher: Sendable {
    /// Starts the browser. True when it started and did not fail within a second (a browser
    /// launcher returns at once; a command that cannot work fails fast); false when nothing
    /// could be started or it failed. The listener is already serving meanwhile; on false
    /// the caller prints the URL and keeps waiting (SPEC §2).
    func open(_ url: URL) async -> Bool
    /// The same browser, started without the variables `configured` (those the configuration
    /// reads secrets from) besides `ChildEnvironment.secretVariables`.
    func hiding(_ configured: Set<String>) -> any BrowserLauncher
}

extension BrowserLauncher {
    /// A launcher that starts nothing of its own has nothing to hide.
    public func hiding(_ configured: Set<String>) -> any BrowserLauncher { self }
}

/// Runs a command (split on white space, no shell) with the URL as its last argument, or in
/// place of a `%s` argument (as `$BROWSER` entries write it for xdg-utils and Python's
/// webbrowser). Success is the command starting and not exiting non-zero within a second.
public struct CommandBrowserLauncher: BrowserLauncher {
    public let arguments: [String]
    /// What the browser gets: authctl's environment without its secrets.
    let environment: ChildEnvironment

    /// How long a browser command has to fail before it counts as having opened the browser.
    static let failureWindow: Double = 1

    public init(command: String, environment: ChildEnvironment) {
        self.arguments = command.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        self.environment = environment
    }

    public func open(_ url: URL) async -> Bool {
        guard let program = arguments.first, let executable = Self.resolve(program) else { return false }
        var rest = Array(arguments.dropFirst())
        if let placeholder = rest.firstIndex(of: "%s") { rest[placeholder] = url.absoluteString } else { rest.append(url.absoluteString) }
        guard let exit = DetachedProcess.launch(executable: executable, arguments: rest, environment: environment) else { return false }
        let status = await exit.status(within: Self.failureWindow)
        return status == nil || status == 0
    }

    /// Finds `program` on `PATH` the way a shell would (a name with a `/` is taken as a path).
    static func resolve(_ program: String) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? program : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// The user's browser without `--browser-command`: each command of `$BROWSER` (a
/// `:`-separated list, as xdg-utils and Python's webbrowser read it) in turn until one
/// works, then the desktop's default — `xdg-open` on Linux (only with a display), `open` on
/// macOS.
public struct SystemBrowserLauncher: BrowserLauncher {
    let environment: [String: String]
    /// The variables the configuration reads secrets from, kept from the browser.
    let configuredSecrets: Set<String>

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, configuredSecrets: Set<String> = []) {
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

    public func open(_ url: URL) async -> Bool {
        for command in (environment["BROWSER"] ?? "").split(separator: ":") where !command.allSatisfy(\.isWhitespace) {
            if await self.command(String(command)).open(url) { return true }
        }
        #if os(macOS)
            return await command("open").open(url)
        #else
            // Without a display there is no browser to open; print the URL instead.
            guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return false }
            return await command("xdg-open").open(url)
        #endif
    }
}

/// `--no-browser`: never opens anything.
public struct NoBrowserLauncher: BrowserLauncher {
    public init() {}
    public func open(_ url: URL) async -> Bool { false }
}
