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

    public func open(_ url: URL) async -> Bool { await launch(url).opened }

    /// Starts the command; it failed when it could not start or exited non-zero within a second.
    public func launch(_ url: URL) async -> BrowserLaunch { await launchWatching(url).launch }

    /// Starts the command as `launch` does; once it has opened, its end can be waited for.
    public func launchWatching(_ url: URL) async -> BrowserStart {
        let (launch, exit) = await start(url)
        guard launch.opened, let exit else { return BrowserStart(launch: launch) }
        return BrowserStart(launch: launch) { await exit.ended() }
    }

    private func start(_ url: URL) async -> (BrowserLaunch, DetachedProcess.Exit?) {
        guard let program = arguments.first else { return (.notOpened, nil) }
        guard let executable = Self.resolve(program, path: environment.variables["PATH"]) else {
            return (.commandNotStarted(program: program), nil)
        }
        var rest = Array(arguments.dropFirst())
        if let placeholder = rest.firstIndex(of: "%s") { rest[placeholder] = url.absoluteString } else { rest.append(url.absoluteString) }
        guard let exit = DetachedProcess.launch(executable: executable, arguments: rest, environment: environment) else {
            return (.commandNotStarted(program: program), nil)
        }
        let status = await exit.status(within: Self.failureWindow)
        guard let status, status != 0 else { return (.opened, exit) }
        return (.commandFailed(program: program, status: status), exit)
    }

    /// Finds `program` on `path` (the `PATH` the browser gets) the way a shell would (a name
    /// with a `/` is taken as a path).
    static func resolve(_ program: String, path: String?) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? program : nil
        }
        let path = path ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
