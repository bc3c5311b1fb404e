import AuthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a command takes from the process it runs in: its standard streams, its
/// environment variables, the time, the desktop's browser and the runner of `exec`'s child.
/// `AuthctlInvocation` gets one, and the commands read nothing process-global besides:
/// main.swift passes the real ones (`AuthctlIO.process()`), a test its own buffers, a
/// dictionary and a clock, and runs the command layer in its own process.
public struct AuthctlIO: Sendable {
    public var stdin: any InputChannel
    /// stdout, each write that fails recorded in `stdoutFailures` (a command whose output was
    /// lost ends with status 1, not 0).
    public var stdout: any OutputChannel {
        get { recordedStdout }
        set { recordedStdout = RecordedOutput(base: newValue, failures: stdoutFailures) }
    }
    private var recordedStdout: RecordedOutput
    let stdoutFailures = StdoutFailures()
    public var stderr: any OutputChannel
    /// The environment variables (`AUTHCTL_*`, `XDG_*`, `HOME`, `NO_COLOR`, `TERM`, proxies,
    /// client secrets named by `--client-secret-env`; `exec`'s child and the browser get them
    /// without those that hold or unlock a secret, `ChildEnvironment`).
    public var environment: [String: String] {
        get { variables.all }
        set { variables = .given(newValue) }
    }
    /// Where `environment` comes from (the process's is read lazily: `EnvironmentVariables`).
    var variables: EnvironmentVariables
    public var clock: any Clock
    /// The desktop's browser: what opens the sign-in page when neither `--browser-command`,
    /// `AUTHCTL_BROWSER` nor `--no-browser` (`--manual`, `--device-code`) decides otherwise.
    public var browser: any BrowserLauncher
    /// Runs `exec`'s command (it inherits the process's own standard streams).
    public var childProcesses: any ChildProcessRunner
    /// Where the configuration at a path is kept: the file itself for the process.
    public var configStorage: @Sendable (_ path: String) -> any ConfigStorage

    public init(
        stdin: any InputChannel, stdout: any OutputChannel, stderr: any OutputChannel, environment: [String: String],
        clock: any Clock, browser: any BrowserLauncher, childProcesses: any ChildProcessRunner,
        configStorage: @escaping @Sendable (_ path: String) -> any ConfigStorage
    ) {
        self.stdin = stdin
        recordedStdout = RecordedOutput(base: stdout, failures: stdoutFailures)
        self.stderr = stderr
        variables = .given(environment)
        self.clock = clock
        self.browser = browser
        self.childProcesses = childProcesses
        self.configStorage = configStorage
    }

    /// The process's own: file descriptors 0, 1 and 2, its environment, the wall clock,
    /// `$BROWSER` or the desktop's default browser, child processes, config.json on disk.
    /// Cheap to build: nothing is opened or asked (isatty) until a command needs it, and the
    /// environment is made into a dictionary only when a command asks for all of it
    /// (`variable` reads one).
    public static func process() -> AuthctlIO {
        let environment = ProcessEnvironment()
        var io = AuthctlIO(
            stdin: FileDescriptorInput(descriptor: STDIN_FILENO), stdout: FileDescriptorOutput(descriptor: STDOUT_FILENO),
            stderr: FileDescriptorOutput(descriptor: STDERR_FILENO), environment: [:], clock: SystemClock(),
            browser: ProcessBrowserLauncher(environment: environment), childProcesses: SystemChildProcessRunner(),
            configStorage: { FileConfigStorage(path: $0, random: SystemRandomSource()) })
        io.variables = .process(environment)
        return io
    }

    /// One environment variable: what `environment[name]` gives, without building the whole
    /// dictionary of the process's environment.
    func variable(_ name: String) -> String? { variables.value(name) }
}
