import ArgumentParser
import AuthCore

/// What ArgumentParser would answer unhelpfully, answered first (issue 15, item 5): a
/// command name mistyped or borrowed from another tool (`logout`) gets the nearest
/// command, `help NOSUCH` is an error, and global options alone say that a command is missing.
enum CommandLineCheck {
    /// Names people bring from other tools (`gh auth logout`, `az login`, `whoami`).
    static let aliases = [
        "log-out": "signout", "sign-out": "signout", "signin": "login", "sign-in": "login", "auth": "login",
        "whoami": "status", "info": "status", "provider": "providers", "user": "users", "account": "users", "accounts": "users",
        "run": "exec",
    ]

    static var commands: [String] {
        Authctl.configuration.subcommands.flatMap { [$0.configuration.commandName].compactMap { $0 } + $0.configuration.aliases }
            + ["help"]
    }

    /// The usage error for `arguments` (after global options were moved behind the command),
    /// or nil when ArgumentParser should take them as they are.
    static func problem(with arguments: [String]) -> AuthError? {
        guard let first = arguments.first else { return nil }  // no arguments: the overview
        if first.hasPrefix("-") {
            let own = ["-h", "--help", "--version", "--generate-completion-script", "---completion"]
            guard !own.contains(where: { first == $0 || first.hasPrefix($0 + "=") }), !first.hasPrefix("--experimental") else { return nil }
            // An option that is not a global one, before a command: it is the command's, and goes after it.
            if let command = arguments.prefix(while: { $0 != "--" }).first(where: { commands.contains($0) && $0 != "help" }) {
                let option = Sanitize.text(first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first, limit: 40)
                return .invalidArgument(
                    "'\(option)' is not an option of authctl itself, so it cannot come before the command: put it after the command (authctl \(command) \(option) …; authctl \(command) --help lists its options)"
                )
            }
            return .invalidArgument("name a command first: authctl COMMAND [options] (the commands: authctl --help)")
        }
        if first == "help", arguments.count > 1, !arguments[1].hasPrefix("-") {
            return unknown(arguments[1], lead: "there is no help for")
        }
        if let problem = unknown(first, lead: "there is no command") { return problem }
        // A command of a group (`users lst`): the nearest of that group's commands.
        if arguments.count > 1, !arguments[1].hasPrefix("-"),
            let group = Authctl.configuration.subcommands.first(where: { $0.configuration.commandName == first }),
            !group.configuration.subcommands.isEmpty
        {
            let names = group.configuration.subcommands.compactMap { $0.configuration.commandName }
            let name = arguments[1]
            guard !names.contains(name) else { return nil }
            let nearest = nearest(to: name, among: names)
            return .invalidArgument(
                "there is no command '\(first) \(Sanitize.text(name, limit: 40))'.\(nearest.map { " Did you mean '\(first) \($0)'?" } ?? "") The commands of \(first): authctl \(first) --help"
            )
        }
        return nil
    }

    /// The command a typo is nearest to; a short word (`providers ad`, `backend us`), too
    /// short for an edit distance to mean much, gets the one command it begins.
    static func nearest(to name: String, among names: [String]) -> String? {
        if let closest = Suggestion.closest(to: name, among: names) { return closest }
        let starting = names.filter { !name.isEmpty && $0.hasPrefix(name.lowercased()) }
        return starting.count == 1 ? starting.first : nil
    }

    private static func unknown(_ name: String, lead: String) -> AuthError? {
        guard !commands.contains(name) else { return nil }
        let nearest = aliases[name.lowercased()] ?? nearest(to: name, among: commands.filter { $0 != "help" })
        return .invalidArgument(
            "\(lead) '\(Sanitize.text(name, limit: 40))'.\(nearest.map { " Did you mean '\($0)'?" } ?? "") The commands: authctl --help")
    }
}
