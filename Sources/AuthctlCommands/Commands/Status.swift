import ArgumentParser
import AuthCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct Status: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show who is signed in, the linked providers and token lifetimes.",
        discussion: """
            Exits 0 when signed in and 16 (no-current-user) when not. Reads the keystore only.

            Examples:
              authctl status
              authctl status --json            # for scripts: {"signedIn": …, "user": …}
            """)

    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        // Profiles only: a sealed keystore's status needs no key (its tokens say they are sealed).
        let state = try wiring.keystore().readCurrentUserProfile()
        guard let user = state.currentUser else {
            if global.json { wiring.output.json(.object(["signedIn": .bool(false)])) }
            wiring.output.error(
                "authctl: nobody is signed in. Sign in with: authctl login \(wiring.onlyConfiguredProvider() ?? "PROVIDER")\n")
            throw ExitCode(AuthError.Code.noCurrentUser.exitStatus)
        }
        if global.json {
            wiring.output.json(.object(["signedIn": .bool(true), "user": Output.user(user)]))
        } else {
            wiring.output.line("Signed in as " + Output.describe(user, now: wiring.io.clock.now()).joined(separator: "\n"))
        }
    }
}
