import ArgumentParser
import AuthCore
import Foundation

/// `authctl`: sign in to identity providers from the command line.
struct Authctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authctl",
        abstract:
            "Sign in to Microsoft Entra ID, Sign in with Apple and OpenID Connect providers from the command line; keep the session in a local keystore.",
        discussion: "Global options (--keystore, --config, --json, -v, -q) go before or after the subcommand.",
        version: AuthctlVersion.string,
        subcommands: [
            Login.self, LinkCommand.self, ReauthCommand.self, UnlinkCommand.self, Status.self, Token.self, ExecCommand.self,
            SignOutCommand.self,
            ProvidersCommand.self, UsersCommand.self,
        ])
}

enum AuthctlVersion {
    static let string = "0.1.0"
}
