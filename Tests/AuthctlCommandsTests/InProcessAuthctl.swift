import AuthCore
import AuthCoreTestSupport
import AuthctlCommands
import Foundation
import Testing

/// Runs authctl's command layer in the test process, through its one entry point
/// (`AuthctlInvocation`, what main.swift calls): no process is started. Each run gets its own
/// `AuthctlIO` — stdout and stderr captured, an environment dictionary of its own (a private
/// home as `AuthctlProcess` makes one: keystore, config and cache in a fresh temporary
/// directory; nothing of the test process's environment but `PATH`), stdin closed unless the
/// test gives bytes, no terminal unless the test says so, a `FixedClock` that starts at the
/// real time (in whole seconds) and moves only when a flow sleeps (device-code polling) or
/// the test advances it, and as the desktop's browser `FollowingBrowser`, which follows the
/// provider's 302 (or posts its form_post page) into authctl's real loopback listener. Runs
/// share only the files, as processes do.
struct InProcessAuthctl {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: [String: JSONValue]? { JSONValue.object(from: Data(stdout.utf8)) }
    }

    /// Which standard streams a person's terminal is on (all off: a pipe, as in CI).
    struct Terminals {
        var stdin = false
        var stdout = false
        var stderr = false
        static let none = Terminals()
        static let all = Terminals(stdin: true, stdout: true, stderr: true)
    }

    /// A clock at the current time in whole seconds (what the keystore stores) that moves only
    /// when told, or when something waits on it.
    static func fixedClock() -> FixedClock { FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) }

    let home: String
    var keystorePath: String { home + "/data/authctl/keystore.json" }
    var configPath: String { home + "/config/authctl/config.json" }
    let clock: any AdvanceableClock
    var browser: any BrowserLauncher
    /// config.json on disk, as for the process; a test may count what is read.
    var configStorage: @Sendable (String) -> any ConfigStorage = { FileConfigStorage(path: $0, random: SystemRandomSource()) }

    /// The wall clock by default (the listener's and the browser page's deadlines pass in real
    /// time, as real sockets and the browser need); a test that prints lifetimes gives a
    /// `FixedClock` (`fixedClock()`), so that they print the same on every run.
    init(
        clock: any AdvanceableClock = RunningClock(),
        browser: any BrowserLauncher = FollowingBrowser()
    ) {
        home = NSTemporaryDirectory() + "authctl-ip-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        self.clock = clock
        self.browser = browser
    }

    var environment: [String: String] {
        [
            "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
            "NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    func io(stdin: any InputChannel, stdout: CapturedOutput, stderr: CapturedOutput, environment extra: [String: String]) -> AuthctlIO {
        AuthctlIO(
            stdin: stdin, stdout: stdout, stderr: stderr, environment: environment.merging(extra) { $1 }, clock: clock, browser: browser,
            childProcesses: SystemChildProcessRunner(), configStorage: configStorage)
    }

    /// Runs one command line. (It throws nothing: `throws` lets tests moved from
    /// `AuthctlProcess` keep their `try await`.)
    @discardableResult
    func run(
        _ arguments: [String], environment extra: [String: String] = [:], stdin: Data? = nil, terminals: Terminals = .none,
        stdoutFails: Bool = false
    ) async throws -> Result {
        let stdout = CapturedOutput(isTerminal: terminals.stdout, failing: stdoutFails)
        let stderr = CapturedOutput(isTerminal: terminals.stderr)
        let input = ScriptedInput(stdin ?? Data(), isTerminal: terminals.stdin)
        let status = await AuthctlInvocation.run(arguments, io: io(stdin: input, stdout: stdout, stderr: stderr, environment: extra))
        return Result(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    func keystoreBytes() -> Data? { FileManager.default.contents(atPath: keystorePath) }

    /// Registers the in-process provider as `oidc.fake`, as most tests begin.
    func addFakeProvider(_ provider: FakeIdentityProvider, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let added = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(added.status == 0, "\(added.stderr)", sourceLocation: sourceLocation)
    }

    /// Runs a `--manual` sign-in as a person would: waits for the printed URL, gives it to
    /// `respond` (which plays the browser), pastes the answer on stdin (a pipe).
    func runManual(_ arguments: [String], environment extra: [String: String] = [:], respond: (URL) async throws -> String)
        async throws -> Result
    {
        let stdin = PipeInput()
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let io = io(stdin: stdin, stdout: stdout, stderr: stderr, environment: extra)
        let running = Task { await AuthctlInvocation.run(arguments, io: io) }
        let line = try await stderr.waitForLine(containing: "Then paste") { $0.hasPrefix("http") }
        if let url = line.flatMap(URL.init(string:)) { stdin.write(Data((try await respond(url) + "\n").utf8)) }
        stdin.closeWriting()
        let status = await running.value
        stdin.closeReading()
        return Result(status: status, stdout: stdout.text, stderr: stderr.text)
    }
}

/// A standard output or error stream kept in memory.
final class CapturedOutput: OutputChannel, @unchecked Sendable {
    let isTerminal: Bool
    /// Every write fails, as on a full disk (`> /dev/full`).
    let failing: Bool
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    init(isTerminal: Bool, failing: Bool = false) {
        self.isTerminal = isTerminal
        self.failing = failing
    }

    func write(_ bytes: [UInt8]) throws {
        if failing { throw FileDescriptorOutput.WriteFailed(errno: ENOSPC) }
        lock.withLock { self.bytes += bytes }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Waits (20 s at most) until the text holds `marker`, then returns its first line that
    /// `matches` (trimmed), or nil.
    func waitForLine(containing marker: String, where matches: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(60)
        while !text.contains(marker) && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first(where: matches)
    }
}

/// Standard input with fixed bytes, then its end (no bytes: stdin closed, as `< /dev/null`).
final class ScriptedInput: InputChannel, @unchecked Sendable {
    let isTerminal: Bool
    private let lock = NSLock()
    private var rest: ArraySlice<UInt8>

    init(_ data: Data, isTerminal: Bool) {
        rest = Array(data)[...]
        self.isTerminal = isTerminal
    }

    func read(upTo count: Int) throws -> [UInt8] {
        try Task.checkCancellation()
        return lock.withLock {
            let chunk = Array(rest.prefix(count))
            rest = rest.dropFirst(chunk.count)
            return chunk
        }
    }
}

/// Standard input that a test writes while the command runs (a person pasting): a pipe, read
/// by the real `FileDescriptorInput`.
final class PipeInput: InputChannel, @unchecked Sendable {
    private let reader: FileDescriptorInput
    private let pipe = Pipe()

    /// A pipe that says it is a terminal when `isTerminal` (a person who has not typed yet).
    let isTerminal: Bool

    init(isTerminal: Bool = false) {
        reader = FileDescriptorInput(descriptor: pipe.fileHandleForReading.fileDescriptor)
        self.isTerminal = isTerminal
    }

    func read(upTo count: Int) throws -> [UInt8] { try reader.read(upTo: count) }
    func write(_ data: Data) { pipe.fileHandleForWriting.write(data) }
    func closeWriting() { try? pipe.fileHandleForWriting.close() }
    func closeReading() { try? pipe.fileHandleForReading.close() }
}
