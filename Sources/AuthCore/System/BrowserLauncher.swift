#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Opens the authorization URL for the person signing in.
public protocol BrowserLauncher: Sendable {
    /// Starts the browser and returns at once. Returns false when nothing could be
    /// started; the caller then prints the URL and keeps waiting.
    func open(_ url: URL) -> Bool
}

/// Runs a command (split on white space, no shell) with the URL appended as its last
/// argument. Its exit status is ignored: a browser launcher returns at once.
public struct CommandBrowserLauncher: BrowserLauncher {
    public let arguments: [String]

    public init(command: String) {
        self.arguments = command.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    public func open(_ url: URL) -> Bool {
        guard let program = arguments.first, let executable = Self.resolve(program) else { return false }
        return DetachedProcess.launch(executable: executable, arguments: Array(arguments.dropFirst()) + [url.absoluteString])
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

/// The desktop's default browser: `xdg-open` on Linux, `open` on macOS.
public struct SystemBrowserLauncher: BrowserLauncher {
    public init() {}
    public func open(_ url: URL) -> Bool {
        #if os(macOS)
            return CommandBrowserLauncher(command: "open").open(url)
        #else
            let environment = ProcessInfo.processInfo.environment
            // Without a display there is no browser to open; print the URL instead.
            guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return false }
            return CommandBrowserLauncher(command: "xdg-open").open(url)
        #endif
    }
}

/// `--no-browser`: never opens anything.
public struct NoBrowserLauncher: BrowserLauncher {
    public init() {}
    public func open(_ url: URL) -> Bool { false }
}
