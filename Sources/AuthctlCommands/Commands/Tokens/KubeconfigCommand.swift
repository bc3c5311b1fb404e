import ArgumentParser
import AuthCore

/// `authctl kubeconfig set-credentials NAME` (docs/identities.md): kubectl runs authctl for its token.
struct KubeconfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kubeconfig", abstract: "Set up kubectl to get its tokens from authctl.", subcommands: [SetCredentials.self])

    struct SetCredentials: AuthctlCommand {
        /// `--user` is written into the entry, for the `token` kubectl runs.
        var takesUser: Bool { true }

        static let configuration = CommandConfiguration(
            commandName: "set-credentials",
            abstract: "Write a kubeconfig user whose exec plugin runs authctl token --format kubectl-exec.",
            discussion: """
                The entry NAME is replaced or added; the rest of the file is kept (not its comments). Without --user, \
                the plugin uses whichever user config.json's rules choose where kubectl runs (or the current user).
                Then: kubectl config set-context CONTEXT --user NAME (or --user NAME on each kubectl command).

                Examples:
                  authctl kubeconfig set-credentials aks-contoso --provider microsoft.com \\
                      --user alice@contoso.com
                  authctl kubeconfig set-credentials dev --dry-run
                """)

        @Argument(help: "The kubeconfig user's name.") var name: String
        @Option(help: ArgumentHelp("The provider whose token kubectl gets.", valueName: "provider"), completion: Completions.providerIDs)
        var provider: String?
        @Option(
            help: ArgumentHelp("The kubeconfig file (default: the first of KUBECONFIG, else ~/.kube/config).", valueName: "path"),
            completion: .file())
        var kubeconfig: String?
        @Option(help: ArgumentHelp("The program kubectl runs (default: authctl, found on kubectl's PATH).", valueName: "path"))
        var command: String?
        @Flag(name: .customLong("dry-run"), help: "Print the entry; change nothing.") var dryRun = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let provider { _ = try ProviderID(parsing: provider) }
        }

        func run(_ wiring: Wiring) async throws {
            var arguments = ["token", "--format=kubectl-exec"]
            if let provider { arguments.append(try ProviderID(parsing: provider).rawValue) }
            // The same files and user as this command, when given: kubectl's authctl must find them.
            if let keystore = global.keystore { arguments.append("--keystore=" + IdentityChoice.absolute(keystore, io: wiring.io)) }
            if let config = global.config { arguments.append("--config=" + IdentityChoice.absolute(config, io: wiring.io)) }
            if let user = global.user { arguments.append("--user=" + user) }
            let path = kubeconfig.map { IdentityChoice.absolute($0, io: wiring.io) } ?? Self.defaultPath(wiring)
            let output = try await wiring.useCases().kubeconfigSetup.run(
                .init(name: name, path: path, command: command ?? "authctl", arguments: arguments, dryRun: dryRun))
            if global.json {
                wiring.output.json(
                    .object([
                        "kubeconfig": .string(path), "name": .string(name), "replaced": .bool(output.replaced),
                        "written": .bool(output.written), "entry": .string(output.entry),
                    ]))
                return
            }
            if dryRun {
                wiring.output.write(Array(("# users[] entry for " + path + "\n" + output.entry).utf8))
                return
            }
            wiring.output.line(
                "\(output.replaced ? "Replaced" : "Added") the user \(name) in \(path). Use it with: kubectl config set-context CONTEXT --user \(name)"
            )
        }

        static func defaultPath(_ wiring: Wiring) -> String {
            if let list = wiring.io.variable("KUBECONFIG"), let first = list.split(separator: ":").first, !first.isEmpty {
                return IdentityChoice.absolute(String(first), io: wiring.io)
            }
            return (IdentityChoice.ruleContext(io: wiring.io, askedRemote: nil).homeDirectory() ?? "") + "/.kube/config"
        }
    }
}

extension IdentityChoice {
    /// `path` made absolute against the working directory.
    static func absolute(_ path: String, io: AuthctlIO) -> String {
        if path.hasPrefix("/") { return path }
        return (ruleContext(io: io, askedRemote: nil).workingDirectory() ?? "") + "/" + path
    }
}
