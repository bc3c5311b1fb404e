import ArgumentParser
import AuthCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct SignOutCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "End the session: drop the tokens and clear the current user (alias: logout).",
        discussion: """
            The user and its linked identities stay, so the next sign-in finds the same uid.

            Examples:
              authctl signout                  # the current user
              authctl signout --all --revoke   # everyone, revoking refresh tokens at the providers
            """,
        aliases: ["logout"])

    @Flag(help: "Sign out every user, not only the current one.") var all = false
    @Flag(help: "First revoke the refresh tokens at providers that support it, and report each result.") var revoke = false
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let output = try await wiring.authEnvironment().signOut.run(.init(all: all, revoke: revoke))
        if global.json {
            wiring.output.json(
                .object([
                    "signedOut": .array(output.signedOut.map(JSONValue.string)),
                    "revocations": Output.revocations(output.revocations),
                ]))
            return
        }
        wiring.output.report(output.revocations)
        wiring.output.line(
            output.signedOut.isEmpty
                ? "Nobody was signed in."
                : "Signed out \(output.signedOut.count == 1 ? "" : "\(output.signedOut.count) users ")(\(output.signedOut.joined(separator: ", ")))."
        )
    }
}
