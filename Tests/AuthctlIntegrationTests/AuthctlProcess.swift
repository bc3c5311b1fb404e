import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Runs the real `authctl` binary in a private home (keystore, config and cache in a fresh
/// temporary directory), with no terminal: stdin is closed.
struct AuthctlProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: [String: JSONValue]? { JSONValue.object(from: Data(stdout.utf8)) }
    }

    let home: String
    var keystorePath: String { home + "/data/authctl/keystore.json" }
    var configPath: String { home + "/config/authctl/config.json" }

    /// A browser that follows the provider's 302 into authctl's listener, as a real one does.
    static let browserCommand = "curl --silent --show-error --location --max-time 20 --output /dev/null"

    /// `python3 Tests/E2E/scripted_browser.py`: follows redirects and posts auto-submitting forms.
    static var formPostingBrowser: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return "python3 " + root.appendingPathComponent("E2E/scripted_browser.py").path
    }

    init() {
        home = NSTemporaryDirectory() + "authctl-it-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["AUTHCTL_BINARY"] { return path }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("authctl").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let bundle = Bundle.main.bundleURL.appendingPathComponent("authctl").path
        if FileManager.default.isExecutableFile(atPath: bundle) { return bundle }
        // .build/debug/authctl from this source file's package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/authctl").path
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["AUTHCTL_KEYSTORE", "AUTHCTL_CONFIG", "AUTHCTL_BROWSER", "DISPLAY", "WAYLAND_DISPLAY"] { environment[key] = nil }
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// Starts authctl; the caller waits with `finish`.
    func start(_ arguments: [String], environment extra: [String: String] = [:], stdin: Data? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        return (process, stdout, stderr)
    }

    /// Runs blocking work (a read from a pipe, a wait for a process) off Swift's concurrency
    /// pool (`OffPool`, Sources/AuthCoreTestSupport/OffPool.swift): on two cores the pool has
    /// two threads, and two tests blocked in reads there stalled every other test — and the
    /// in-process fakes the awaited output depended on — until their 20 s timeouts fired (a
    /// fresh-clone run failed so).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T { await OffPool.run(work) }

    /// What `handle` gives until `text` shows, `seconds` pass, or it ends (off the pool).
    static func read(_ handle: FileHandle, until text: String, seconds: TimeInterval = 20) async -> String {
        await blocking {
            var printed = ""
            let deadline = Date().addingTimeInterval(seconds)
            while !printed.contains(text) && Date() < deadline {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                printed += String(decoding: chunk, as: UTF8.self)
            }
            return printed
        }
    }

    static func finish(_ started: (Process, Pipe, Pipe), alreadyRead: String = "") async -> Result {
        let (process, stdout, stderr) = started
        return await blocking {
            let out = stdout.fileHandleForReading.readDataToEndOfFile()
            let err = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                stderr: alreadyRead + String(decoding: err, as: UTF8.self))
        }
    }

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: Data? = nil) async throws -> Result {
        await Self.finish(try start(arguments, environment: extra, stdin: stdin))
    }

    func keystoreBytes() -> Data? { FileManager.default.contents(atPath: keystorePath) }

    /// Registers the in-process provider as `oidc.fake`, as most tests begin.
    func addFakeProvider(_ provider: FakeIdentityProvider, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let added = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(added.status == 0, "\(added.stderr)", sourceLocation: sourceLocation)
    }

    /// authctl on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it:
    /// what the test writes to `input` is typed (Ctrl-C is byte 3), `output` is the screen.
    struct OnTerminal {
        var process: Process
        var input: FileHandle
        var output: FileHandle

        /// What the screen shows until `text` appears (off the concurrency pool).
        func read(until text: String, seconds: TimeInterval = 30) async -> String {
            await AuthctlProcess.read(output, until: text, seconds: seconds)
        }

        /// The rest of the screen, once authctl has ended.
        func rest() async -> String {
            let (output, process) = (self.output, self.process)
            let rest = await AuthctlProcess.blocking {
                let data = output.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
            try? input.close()
            return rest
        }
    }

    /// Starts `authctl ARGUMENTS` (shell words) on a pseudo-terminal; killed after `seconds`,
    /// so that a hang fails the test instead of holding the suite.
    func startOnTerminal(_ arguments: String, killAfter seconds: Double) throws -> OnTerminal {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // `exec`: script runs the command through $SHELL, and dash (/bin/sh, and script's
        // shell when SHELL is unset, as under CI) forks rather than exec a lone command; the
        // shell, in the terminal's foreground group, would die of the same Ctrl-C (130).
        process.arguments = ["-qefc", "exec \(Self.binary) \(arguments)", "/dev/null"]
        var environment = self.environment
        environment["SHELL"] = "/bin/sh"
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        return OnTerminal(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading)
    }

    /// A running authctl whose stdin the test writes (a person pasting).
    struct Interactive {
        var process: Process
        var stdin: FileHandle
    }

    /// Runs a `--manual` sign-in as a person would: waits for the printed URL, gives it to
    /// `respond` (which plays the browser), pastes the answer on stdin.
    func runManual(_ arguments: [String], environment extra: [String: String] = [:], respond: (URL) async throws -> String)
        async throws -> Result
    {
        let (running, stdout, stderr) = try startInteractive(arguments, environment: extra)
        let printed = await Self.read(stderr.fileHandleForReading, until: "Then paste")
        let line = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("http") }
        if let url = line.flatMap(URL.init(string:)) { running.stdin.write(Data((try await respond(url) + "\n").utf8)) }
        try running.stdin.close()
        return await Self.finish((running.process, stdout, stderr), alreadyRead: printed)
    }

    /// Starts authctl with a pipe on stdin (still no terminal).
    func startInteractive(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (Interactive, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (Interactive(process: process, stdin: stdin.fileHandleForWriting), stdout, stderr)
    }
}
