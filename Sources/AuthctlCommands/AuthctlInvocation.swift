import ArgumentParser
import AuthCore

/// The command layer's one entry point: one command line, run against the I/O it is given
/// (`AuthctlIO`), ending in an exit status (docs/exit-codes.md). main.swift runs it with the process's
/// I/O; tests run it in their own process with buffers, an environment dictionary, a clock
/// and a browser of their own (`InProcessAuthctl`), the way kubelogin's `cmd.Run` is run.
///
/// Parsing happens once, here: the common forms of `authctl token`, `request` and `status` by
/// hand (`TokenInvocation.parseFast`, the hot path; `HandParser`), everything else by
/// ArgumentParser from the
/// root, after `CommandLineCheck` has answered what ArgumentParser would answer unhelpfully.
/// Errors of every kind become output and a status in one place (`ErrorMapping`).
///
///     let invocation = AuthctlInvocation(arguments: ["token"], io: io)
///     let status = invocation.finishWithoutConcurrency() ?? await invocation.run()
///
/// in two steps because of the hot path: a cached token is printed before any `Task`,
/// Dispatch source or thread exists (bench/README.md), so main.swift calls the first step
/// before it starts the task that Ctrl-C cancels. `AuthctlInvocation.run(_:io:)` does both.
public struct AuthctlInvocation: Sendable {
    /// The arguments after the program's name, global options moved behind the command.
    let arguments: [String]
    let io: AuthctlIO
    /// `authctl token …` in a form the hand parser takes; nil for anything else.
    let fastToken: TokenInvocation?
    /// `authctl request …` or `authctl status …` in a form the hand parser takes
    /// (`RequestInvocation.parseFast`, `StatusInvocation.parseFast`); nil for anything else.
    let fastCommand: (any WiredCommand & Sendable)?
    /// Whether an error is also printed as a JSON document on stdout.
    let wantsJSON: Bool

    public init(arguments: [String], io: AuthctlIO) {
        // `--version --json` (either order) is `version --json`: ArgumentParser's --version knows no JSON.
        // (Two arguments, both there: no `Set`, whose first use costs the token path a search
        // of the protocol conformances, issue 24.)
        let arguments =
            arguments.count == 2 && arguments.contains("--version") && arguments.contains("--json")
            ? ["version", "--json"] : GlobalOptions.hoistingLeadingGlobals(arguments)
        self.arguments = arguments
        self.io = io
        fastToken = arguments.first == "token" ? TokenInvocation.parseFast(Array(arguments.dropFirst())) : nil
        switch arguments.first {
        case "request": fastCommand = RequestInvocation.parseFast(Array(arguments.dropFirst()))
        case "status": fastCommand = StatusInvocation.parseFast(Array(arguments.dropFirst()))
        default: fastCommand = nil
        }
        // What follows `--` is the child's (`exec -- echo --json`), never authctl's own option.
        // git-credential's stdout is git's protocol alone: its errors go to stderr only.
        wantsJSON = arguments.first != "git-credential" && arguments.prefix(while: { $0 != "--" }).contains("--json")
    }

    /// Runs a whole command line: `finishWithoutConcurrency()`, else `run()`.
    public static func run(_ arguments: [String], io: AuthctlIO) async -> Int32 {
        let invocation = AuthctlInvocation(arguments: arguments, io: io)
        if let status = invocation.finishWithoutConcurrency() { return status }
        return await invocation.run()
    }

    /// The token hot path, synchronously: when the keystore holds a token that answers the
    /// request it is printed, and the status is 0. nil for everything else — a refresh, an
    /// error, any other command — which `run()` then does (and reports) in full.
    public func finishWithoutConcurrency() -> Int32? {
        guard let fastToken else { return nil }
        // The identity a rule, --user or AUTHCTL_USER chose (docs/identities.md); a problem
        // with it is the full command's to report.
        let keystore = Wiring.keystore(fastToken.settings, io: io, keyMemory: nil, asking: false)
        let printed: Data?
        switch IdentityChoice.fast(fastToken.settings, io: io) {
        case .none: printed = fastToken.printedFromCache(keystore: keystore, now: io.clock.now())
        case .unsure: return nil
        case .chosen(let choice):
            // The chosen user and provider passed as they are (a copy of the request, changed,
            // costs the hot path the runtime's metadata for it: bench/README.md).
            let uid: String?
            do {
                uid = try choice.uid(in: keystore, verifying: false)
            } catch {
                return nil
            }
            printed = fastToken.printedFromCache(
                keystore: keystore, now: io.clock.now(), uid: uid, provider: fastToken.provider ?? choice.provider)
        }
        guard let printed else { return nil }
        Output(stdout: io.stdout, stderr: io.stderr).write(printed)
        return io.stdoutFailures.status(0, stderr: io.stderr)
    }

    /// `--user` on a command that acts on the current user or on none (docs/identities.md).
    static var userRefused: AuthError {
        AuthError.invalidArgument(
            "--user chooses whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo); this command acts on the current user or on none and does not take it. Leave --user out; to act as another user here, make it the current user first: authctl users use UID"
        )
    }

    /// Parses, builds the command's wiring from the I/O and runs it; every error ends as its
    /// message and status. Cancelling the task (Ctrl-C) ends it with `cancelled` (5).
    public func run() async -> Int32 {
        io.stdoutFailures.status(await runCommand(), stderr: io.stderr)
    }

    private func runCommand() async -> Int32 {
        let output = Output(stdout: io.stdout, stderr: io.stderr)
        var signsIn = false
        do {
            let command = try parse()
            signsIn = command.signsIn
            if command.settings.user != nil, !command.takesUser { throw Self.userRefused }
            try await command.run(Wiring(settings: command.settings, io: io))
            return 0
        } catch {
            switch ErrorMapping.outcome(for: error, signsIn: signsIn) {
            case .report(let error): return ErrorReport.emit(error, json: wantsJSON, to: output)
            case .exit(let status): return status
            case .argumentParserOutput: return ErrorMapping.printArgumentParserOutput(for: error, io: io)
            case .interrupted(let message):
                output.error("authctl: \(message)\n")
                return ErrorMapping.interruptedStatus
            }
        }
    }

    /// The one parse path. A command group without a subcommand (`authctl users`) throws
    /// ArgumentParser's request for its help.
    func parse() throws -> any WiredCommand {
        if let fastToken { return fastToken }
        if let fastCommand { return fastCommand }
        if let problem = CommandLineCheck.problem(with: arguments) { throw problem }
        // Completion requests (`---completion`) read the user's files while parsing.
        var command = try Completions.$io.withValue(io) { try Authctl.parseAsRoot(arguments) }
        guard let wired = command as? any WiredCommand else {
            try command.run()  // ArgumentParser's default for a group: CleanExit.helpRequest
            throw CleanExit.helpRequest(command)
        }
        return wired
    }
}

/// A command as the entry point runs it: its global options, and a run with the wiring the
/// entry point built from its I/O (never one of its own).
protocol WiredCommand {
    /// The global options (`--keystore`, `--config`, `--json`, `-v`, `-q`) as plain values.
    var settings: Wiring.Settings { get }
    /// A sign-in (`login`, `link`, `reauth`): Ctrl-C ends it with exit 5, any other command with 130.
    var signsIn: Bool { get }
    /// Whether `--user` means something to it: it reads a token as the identity
    /// `Wiring.chosenIdentity` chose (or, for `rules add` and `kubeconfig set-credentials`, it
    /// writes the user down). Every other command refuses `--user` (exit 2), and `AUTHCTL_USER`
    /// and the rules do not apply to it (docs/identities.md).
    var takesUser: Bool { get }
    func run(_ wiring: Wiring) async throws
}

extension WiredCommand {
    var signsIn: Bool { false }
    var takesUser: Bool { false }
}

/// The ArgumentParser commands: their global options are the `GlobalOptions` group.
protocol AuthctlCommand: ParsableCommand, WiredCommand {
    var global: GlobalOptions { get }
}

extension AuthctlCommand {
    var settings: Wiring.Settings {
        Wiring.Settings(
            keystore: global.keystore, config: global.config, json: global.json, verbose: global.verbose, quiet: global.quiet,
            user: global.user)
    }
}
