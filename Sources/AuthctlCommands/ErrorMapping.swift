import ArgumentParser
import AuthCore

/// A person stopped a command at a question (answered no): exit 130, as Ctrl-C there.
struct Interrupted: Error {
    var reason: String
}

/// How an error that ends a command becomes what the user sees (docs/exit-codes.md), in one place so
/// that a test can hold every kind of error to its exit status.
enum ErrorMapping {
    enum Outcome: Equatable {
        /// Print `authctl: MESSAGE` (and the JSON error with `--json`); exit with its code's status.
        case report(AuthError)
        /// Exit with this status and print nothing (`exec`: the child's status).
        case exit(Int32)
        /// ArgumentParser's own output: help, version, completion scripts (exit 0).
        case argumentParserOutput
        /// A person stopped a command that is no sign-in (Ctrl-C, or no to its question):
        /// print `authctl: MESSAGE`, exit 130 (docs/exit-codes.md), nothing changed.
        case interrupted(String)
    }

    /// Ctrl-C during a sign-in (`login`, `link`, `reauth`): `web-context-cancelled` (5).
    /// The same words as the loopback listener's when Ctrl-C ends its wait (`RedirectListener`).
    static let signInCancelled = AuthError.cancelled("the sign-in was cancelled. Run the command again to sign in")
    /// Ctrl-C at any other wait: exit 130.
    static let interruptedWording = "cancelled (Ctrl-C); nothing was changed"
    static let interruptedStatus: Int32 = 130

    /// `signsIn`: whether the command that ended was a sign-in, whose Ctrl-C is exit 5 (docs/exit-codes.md).
    static func outcome(for error: any Error, signsIn: Bool = true) -> Outcome {
        switch error {
        case let error as AuthError: return .report(error)
        case is CancellationError: return signsIn ? .report(signInCancelled) : .interrupted(interruptedWording)
        case let error as Interrupted: return .interrupted(error.reason)
        // Ctrl-C at a passphrase prompt: one wording with every other wait that is not a sign-in's.
        case is PromptInterrupted: return .interrupted(interruptedWording)
        default: break
        }
        let status = Authctl.exitCode(for: error)
        if status == .success { return .argumentParserOutput }
        if let exit = error as? ExitCode { return .exit(exit.rawValue) }
        guard status == .validationFailure else {
            // Not authctl's own error and not a usage error: a bug (docs/exit-codes.md, internal-error).
            let what = Sanitize.text("\(type(of: error)): \(error)", limit: 160)
            return .report(
                .internalError(
                    "an unexpected error ended the command (\(what)). This is a bug in authctl: please report it with the command you ran and this message (authctl --version: \(AuthctlVersion.string))"
                ))
        }
        var message = Authctl.message(for: error).trimming(.whitespacesAndNewlines)
        // ArgumentParser's own prefix and capital ("Error: Missing expected argument"): in
        // authctl's style, a lower-case word after `authctl: ` (a name such as "URL" stays).
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        if let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true {
            message = first.lowercased() + message.dropFirst()
        }
        // ArgumentParser's sentence may end with its own full stop or question mark.
        while let last = message.last, last == "." { message.removeLast() }
        let stop = message.last == "?" ? "" : "."
        return .report(
            .invalidArgument(
                Message(verbatim: message.isEmpty ? "invalid usage. See: authctl --help" : message + stop + " See: authctl help")))
    }

    /// ArgumentParser's own output (help, `--version`, completion scripts and candidates,
    /// `--experimental-dump-help`) on stdout, as `ParsableCommand.exit(withError:)` prints it,
    /// but on the entry point's stdout and without ending the process. The help's width is
    /// `$COLUMNS` from the I/O's environment, else the terminal's, else 80 (ArgumentParser's
    /// own rule).
    static func printArgumentParserOutput(for error: any Error, io: AuthctlIO) -> Int32 {
        let columns = io.environment["COLUMNS"].flatMap(Int.init) ?? (io.stdout.isTerminal ? nil : 80)
        let text = Completions.offeringCandidatesAsTheyAre(Authctl.fullMessage(for: error, columns: columns))
        let status = Authctl.exitCode(for: error)
        if !text.isEmpty { (status == .success ? io.stdout : io.stderr).print(text + "\n") }
        return status.rawValue
    }
}
