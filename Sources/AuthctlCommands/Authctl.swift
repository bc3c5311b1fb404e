import ArgumentParser
import AuthCore
import CAuthctlSupport

/// `authctl`: sign in to identity providers from the command line.
struct Authctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authctl",
        abstract:
            "Sign in to Microsoft Entra ID, Sign in with Apple and OpenID Connect providers from the command line; keep the session in a local keystore.",
        discussion: "Global options (--keystore, --config, --user, --json, -v, -q) go before or after the subcommand.",
        version: AuthctlVersion.description,
        subcommands: [
            Login.self, LinkCommand.self, ReauthCommand.self, UnlinkCommand.self, Status.self, Token.self, ExecCommand.self,
            GitCredentialCommand.self, SignOutCommand.self, RequestCommand.self, BootstrapCommand.self,
            ProvidersCommand.self, UsersCommand.self, KeystoreCommand.self, UnlockCommand.self, LockCommand.self,
            BackendCommand.self, VersionCommand.self, CompletionCommand.self, DoctorCommand.self,
            AWSCredentialsCommand.self, GCPTokenCommand.self,
            RulesCommand.self,
            KubeconfigCommand.self,
        ])
}

/// `authctl completion bash|zsh|fish`: the completion script, as `--generate-completion-script`
/// prints it (the scripts of completions/ are both).
struct CompletionCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Examples:
              authctl completion bash > ~/.local/share/bash-completion/completions/authctl
              # with fpath=(~/.zsh/completions $fpath)
              authctl completion zsh > ~/.zsh/completions/_authctl
              authctl completion fish > ~/.config/fish/completions/authctl.fish
            """)

    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
        var completionShell: CompletionShell {
            switch self {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        }
    }

    @Argument(help: "The shell: bash, zsh or fish.") var shell: Shell
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        wiring.io.stdout.print(Completions.offeringCandidatesAsTheyAre(Authctl.completionScript(for: shell.completionShell)) + "\n")
    }
}

/// `authctl version`: what `--version` prints, or with `--json` the version and the commit.
struct VersionCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the version and the commit authctl was built from (as --version does).")
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        if global.json {
            wiring.output.json(.object(["version": .string(AuthctlVersion.string), "commit": .string(AuthctlVersion.commit)]))
        } else {
            wiring.output.line(AuthctlVersion.description)
        }
    }
}

enum AuthctlVersion {
    /// The newest release (CHANGELOG.md; a test holds them equal). A build from a commit after
    /// it is packaged as VERSION+gitDATE.COMMIT (scripts/package.sh).
    static let string = AuthctlRelease.version
    /// The commit it was built from, embedded at build time (CAuthctlSupport).
    static let commit = String(cString: authctl_build_commit())
    /// What `authctl --version` prints: `authctl 0.1.0 (commit 0123456789ab)`.
    static let description = "authctl \(string) (commit \(commit))"
}
