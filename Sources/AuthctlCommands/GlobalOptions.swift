import ArgumentParser
import AuthCore

/// The options every command takes (docs/authctl.1).
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("The keystore file (env AUTHCTL_KEYSTORE; default $XDG_DATA_HOME/authctl/keystore.json).", valueName: "path"),
        completion: .file())
    var keystore: String?

    @Option(
        help: ArgumentHelp("The configuration file (env AUTHCTL_CONFIG; default $XDG_CONFIG_HOME/authctl/config.json).", valueName: "path"),
        completion: .file())
    var config: String?

    @Option(
        help: ArgumentHelp(
            "The user whose token a command reads (token, request, exec, git-credential, aws-credentials, gcp-token, status, users photo), by uid or email, without making it the current user (env AUTHCTL_USER; overrides config.json's rules). Other commands refuse it.",
            valueName: "uid-or-email"),
        completion: Completions.uids)
    var user: String?

    @Flag(help: "Print exactly one JSON document on stdout (the result or the error).")
    var json = false

    @Flag(name: .shortAndLong, help: "Log each HTTP exchange (method, host, path, status, duration) to stderr; secrets are never logged.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print no progress lines.")
    var quiet = false

    func validate() throws {
        for (value, option) in [(keystore, "--keystore"), (config, "--config")] {
            if let value, value.trimming(.whitespacesAndNewlines).isEmpty || value.contains(where: \.isNewline) {
                throw ValidationError("\(option) '\(value)' is not a path: give a file path, or leave the option out for the default")
            }
        }
        if let user, !IdentityRule.isUserSelector(user) {
            throw ValidationError(
                "--user '\(Sanitize.text(user, limit: 80))' is neither a uid nor an email address (authctl users list shows both)")
        }
    }

    /// The global options that take a value. (Arrays, not sets: every command line goes
    /// through `hoistingLeadingGlobals`, and a `Set`'s first use costs the token hot path a
    /// search of the protocol conformances, issue 24.)
    static let valued = ["--keystore", "--config", "--user"]
    static let flags = ["--json", "-v", "--verbose", "-q", "--quiet"]

    /// `authctl --json status` → `authctl status --json`: global options given before the
    /// subcommand are moved after it (before any `--`), where every subcommand accepts them.
    static func hoistingLeadingGlobals(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }  // the rest is not authctl's
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) {
                leading.append(argument)
                index += 1
            } else if valued.contains(name) {
                leading.append(argument)
                if !argument.contains("="), index + 1 < arguments.count, arguments[index + 1] != "--" {
                    leading.append(arguments[index + 1])
                    index += 1
                }
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        let insertAt = rest.firstIndex(of: "--") ?? rest.count
        rest.insert(contentsOf: leading, at: insertAt)
        return rest
    }
}
