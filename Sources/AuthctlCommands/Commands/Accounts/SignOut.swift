import ArgumentParser
import AuthCore

struct SignOutCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "End the session: drop the tokens and clear the current user (alias: logout).",
        discussion: """
            The user and its linked identities stay, so the next sign-in finds the same uid. Other users who still
            have a session are named, with how to switch to one (authctl users use UID). With nobody signed in,
            signout and signout --all both say so and exit 0: nothing changed.

            Examples:
              authctl signout                  # the current user
              authctl signout --all --revoke   # everyone, revoking refresh tokens
            """,
        aliases: ["logout"])

    @Flag(help: "Sign out every user, not only the current one.") var all = false
    @Flag(help: "First revoke the refresh tokens at providers that support it, and report each result.") var revoke = false
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let output = try await wiring.useCases().signOut.run(.init(all: all, revoke: revoke))
        // Who still has a session (the current user signed out, another did not): how to switch to them.
        let others = all ? [] : ((try? wiring.keystore().readProfiles().usersByCreation.filter(Output.hasSession)) ?? [])
        if global.json {
            wiring.output.json(
                .object([
                    "signedOut": .array(output.signedOut.map(JSONValue.string)),
                    "revocations": Output.revocations(output.revocations),
                    "otherSessions": .array(others.map { Output.sessionSummary($0) }),
                ]))
            return
        }
        wiring.output.report(output.revocations)
        wiring.output.line(
            output.signedOut.isEmpty
                ? "Nobody was signed in; nothing changed."
                : "Signed out \(output.signedOut.count == 1 ? "" : "\(output.signedOut.count) users ")(\(output.signedOut.joined(separator: ", ")))."
        )
        if let first = others.first {
            let names = others.prefix(5).map { "\(Output.name(of: $0)) (\($0.uid))" }.joined(separator: ", ")
            wiring.output.line(
                "Still signed in: \(names)\(others.count > 5 ? " and \(others.count - 5) more" : ""). Switch with: authctl users use \(others.count == 1 ? first.uid : "UID")"
            )
        }
    }
}
