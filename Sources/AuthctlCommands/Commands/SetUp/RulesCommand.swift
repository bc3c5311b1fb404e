import ArgumentParser
import AuthCore

/// `authctl rules add|list|remove|explain` (docs/identities.md): which identity a command uses
/// where it runs, without switching the current user.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Choose the identity by where a command runs: directory, git remote, kube context, environment.",
        discussion: """
            The first rule whose conditions all hold names the user (and provider) that token, exec, git-credential, \
            status and kubectl use; the current user does not change. --user and AUTHCTL_USER override every rule.

            Examples:
              authctl rules add --name work --user alice@contoso.com \\
                  --provider microsoft.com --directory ~/work/
              authctl rules add --name contoso --user alice@contoso.com \\
                  --remote 'https://dev.azure.com/contoso/**'
              authctl rules add --name prod --user ops@example.com --kube-context 'prod-*'
              authctl rules explain
            """,
        subcommands: [Add.self, List.self, Remove.self, Explain.self])

    struct Add: AuthctlCommand {
        /// `--user` is the rule's user.
        var takesUser: Bool { true }

        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a rule (last, or at --position); every condition given must hold.",
            discussion: "--user UID-OR-EMAIL names the user it chooses, --provider the provider; give one or both.")

        @Option(help: ArgumentHelp("A name to remove it by.", valueName: "name")) var name: String?
        @Option(help: ArgumentHelp("The provider whose token to give.", valueName: "provider"), completion: Completions.providerIDs)
        var provider: String?
        @Option(
            help: ArgumentHelp("Holds in this directory and under it (~ for home; symbolic links resolved).", valueName: "path"),
            completion: .directory)
        var directory: String?
        @Option(
            help: ArgumentHelp(
                "Holds when a git remote (or the URL git asks about) matches: * within a segment, ** across.", valueName: "url-pattern"))
        var remote: String?
        @Option(
            name: .customLong("kube-context"), help: ArgumentHelp("Holds when kubectl's current context matches.", valueName: "pattern"))
        var kubeContext: String?
        @Option(help: ArgumentHelp("Holds when NAME is set and not empty, or NAME=VALUE when it equals VALUE.", valueName: "NAME[=VALUE]"))
        var env: String?
        @Option(help: ArgumentHelp("Its place among the rules, from 1 (default: last).", valueName: "n")) var position: Int?
        @Flag(
            name: .customLong("allow-unknown-user"),
            help: "Add the rule although the keystore holds no such --user yet (sign them in before the rule is used).")
        var allowUnknownUser = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let position, position < 1 || position > IdentityRule.maximumCount {
                throw ValidationError("--position \(position) is out of range: give 1…\(IdentityRule.maximumCount)")
            }
        }

        func run(_ wiring: Wiring) async throws {
            // The user it chooses is --user (here not the user to act as: nothing acts).
            var rule = IdentityRule(
                name: name, user: global.user, provider: try provider.map { try ProviderID(parsing: $0).rawValue }, directory: directory,
                remote: remote,
                kubeContext: kubeContext, env: env)
            // A relative directory is taken from here, as the shell would.
            if let directory, !directory.hasPrefix("/"), !directory.hasPrefix("~") {
                let context = IdentityChoice.ruleContext(io: wiring.io, askedRemote: nil)
                rule.directory = context.realPath(directory) ?? ((context.workingDirectory() ?? "") + "/" + directory)
            }
            if let user = global.user { try checkKnown(user, wiring) }
            let rules = try await Rules(configStore: wiring.configStore()).add(rule, at: position)
            if global.json {
                wiring.output.json(.object(["rules": .array(RulesCommand.json(rules))]))
            } else {
                let index = rules.firstIndex(of: rule).map { $0 + 1 } ?? rules.count
                wiring.output.line("Added rule \(index): \(RulesCommand.describe(rule))")
            }
        }

        /// A rule for a user the keystore does not hold makes every command where it holds exit
        /// 16 (issue 38): refused, unless --allow-unknown-user, which warns.
        func checkKnown(_ user: String, _ wiring: Wiring) throws {
            let users = try wiring.keystore().readProfiles().users
            let wanted = user.lowercased()
            let known = users.contains { candidate in
                candidate.uid == user || candidate.email?.lowercased() == wanted
                    || candidate.providerData.contains { $0.profile.emailVerified && $0.profile.email?.lowercased() == wanted }
            }
            if known { return }
            let held = users.isEmpty ? "no users" : "only " + users.map { Output.cell($0.email ?? $0.uid) }.joined(separator: ", ")
            let name = Sanitize.text(user, limit: 80)
            if allowUnknownUser {
                wiring.output.error(
                    "authctl: warning: the keystore holds no user \(name) yet (\(held)); until they sign in (authctl login PROVIDER), commands where this rule holds exit 16.\n"
                )
                return
            }
            throw AuthError.invalidArgument(
                "the keystore holds no user \(name) (it holds \(held)), so every command where this rule holds would fail. Sign \(name) in first (\(command: .login, "PROVIDER"), then \(command: .usersList) shows them), or add the rule anyway with --allow-unknown-user"
            )
        }
    }

    struct List: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules in the order they are tried.")
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let rules = try Rules(configStore: wiring.configStore()).list()
            if global.json {
                wiring.output.json(.object(["rules": .array(RulesCommand.json(rules))]))
                return
            }
            guard !rules.isEmpty else {
                wiring.output.line("No rules: every command uses the current user. Add one with: authctl rules add --help")
                return
            }
            for (offset, rule) in rules.enumerated() { wiring.output.line("\(offset + 1). \(RulesCommand.describe(rule))") }
        }
    }

    struct Remove: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule by its name or number.")
        @Argument(help: "The rule's name, or its number in rules list.") var rule: String
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let removed = try await Rules(configStore: wiring.configStore()).remove(rule)
            if global.json {
                wiring.output.json(.object(["removed": RulesCommand.json([removed])[0]]))
            } else {
                wiring.output.line("Removed: \(RulesCommand.describe(removed))")
            }
        }
    }

    struct Explain: AuthctlCommand {
        /// It says what `--user` does here (it overrides every rule).
        var takesUser: Bool { true }

        static let configuration = CommandConfiguration(
            commandName: "explain", abstract: "Show which rule wins here, and why each rule does or does not hold.",
            discussion: "With --remote URL, as git-credential would for that URL.")
        @Option(help: ArgumentHelp("Explain for this URL, as git asks a credential for it.", valueName: "url")) var remote: String?
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let rules = try Rules(configStore: wiring.configStore()).list()
            let context = IdentityChoice.ruleContext(io: wiring.io, askedRemote: remote)
            let evaluations = IdentityRules.explain(rules, in: context)
            let winner = evaluations.first(where: \.matches)
            let override = IdentityChoice.overriding(wiring.options, io: wiring.io)
            if global.json {
                var document: [String: JSONValue] = [
                    "rules": .array(
                        evaluations.map { evaluation in
                            .object([
                                "index": .number(Double(evaluation.index)), "name": Output.optional(evaluation.rule.name),
                                "matches": .bool(evaluation.matches),
                                "conditions": .array(
                                    evaluation.conditions.map { result in
                                        .object([
                                            "condition": .string(result.condition.rawValue), "pattern": .string(result.pattern),
                                            "found": .array(result.found.map(JSONValue.string)), "holds": .bool(result.holds),
                                        ])
                                    }),
                            ])
                        }),
                    "winner": winner.map { .number(Double($0.index)) } ?? .null,
                    "overriddenBy": override.map { .string($0.sourceDescription) } ?? .null,
                ]
                if let chosen = override
                    ?? winner.map({
                        IdentityChoice(user: $0.rule.user, provider: $0.rule.provider, source: .rule(index: $0.index, name: $0.rule.name))
                    })
                {
                    document["user"] = Output.optional(chosen.user)
                    document["provider"] = Output.optional(chosen.provider)
                }
                wiring.output.json(.object(document))
                return
            }
            if rules.isEmpty { wiring.output.line("No rules in \(wiring.configPath).") }
            for evaluation in evaluations {
                let label = "rule \(evaluation.index)\(evaluation.rule.name.map { " (\($0))" } ?? "")"
                let verdict =
                    evaluation.matches
                    ? (evaluation.index == winner?.index ? "matches — wins" : "matches (an earlier rule won)") : "does not match"
                wiring.output.line("\(label): \(verdict)")
                for result in evaluation.conditions {
                    let found =
                        result.found.isEmpty ? "nothing" : result.found.map { Sanitize.text($0, limit: 200) }.joined(separator: ", ")
                    wiring.output.line(
                        "  \(result.holds ? "✓" : "✗") \(RulesCommand.conditionName(result.condition)) \(result.pattern) — found \(found)")
                }
            }
            if let override {
                wiring.output.line("\(override.sourceDescription) overrides every rule: the user is \(override.user ?? "")")
            } else if let winner {
                wiring.output.line(
                    "Here: \(RulesCommand.describe(winner.rule, conditions: false)) (rule \(winner.index); the current user is unchanged)")
            } else {
                wiring.output.line("Here no rule matches: the current user.")
            }
        }
    }

    static func conditionName(_ condition: IdentityRule.Condition) -> String {
        switch condition {
        case .env: "env"
        case .directory: "directory"
        case .kubeContext: "kube context"
        case .remote: "remote"
        }
    }

    /// `work: user alice@contoso.com, provider microsoft.com — when directory ~/work/`.
    static func describe(_ rule: IdentityRule, conditions: Bool = true) -> String {
        var chosen: [String] = []
        if let user = rule.user { chosen.append("user \(user)") }
        if let provider = rule.provider { chosen.append("provider \(provider)") }
        var text = (rule.name.map { "\($0): " } ?? "") + chosen.joined(separator: ", ")
        if conditions {
            text += " — when " + rule.conditions.map { "\(conditionName($0.0)) \($0.1)" }.joined(separator: " and ")
        }
        return text
    }

    static func json(_ rules: [IdentityRule]) -> [JSONValue] {
        rules.enumerated().map { offset, rule in
            var fields: [String: JSONValue] = ["index": .number(Double(offset + 1))]
            for (key, value) in [
                ("name", rule.name), ("user", rule.user), ("provider", rule.provider), ("directory", rule.directory),
                ("remote", rule.remote), ("kubeContext", rule.kubeContext), ("env", rule.env),
            ] {
                if let value { fields[key] = .string(value) }
            }
            return .object(fields)
        }
    }
}
