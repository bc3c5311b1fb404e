import ArgumentParser
import AuthCore
import CAuthctlSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `authctl`: sign in to identity providers from the command line.
struct Authctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authctl",
        abstract:
            "Sign in to Microsoft Entra ID, Sign in with Apple and OpenID Connect providers from the command line; keep the session in a local keystore.",
        discussion: "Global options (--keystore, --config, --json, -v, -q) go before or after the subcommand.",
        version: AuthctlVersion.description,
        subcommands: [
            Login.self, LinkCommand.self, ReauthCommand.self, UnlinkCommand.self, Status.self, Token.self, ExecCommand.self,
            GitCredentialCommand.self, SignOutCommand.self,
            ProvidersCommand.self, UsersCommand.self, KeystoreCommand.self, BackendCommand.self, VersionCommand.self, DoctorCommand.self,
        ])
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
    static let string = "0.1.0"
    /// The commit it was built from, embedded at build time (CAuthctlSupport).
    static let commit = String(cString: authctl_build_commit())
    /// What `authctl --version` prints: `authctl 0.1.0 (commit 0123456789ab)`.
    static let description = "authctl \(string) (commit \(commit))"
}
