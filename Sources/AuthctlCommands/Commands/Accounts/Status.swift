import ArgumentParser
import AuthCore

struct Status: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show who is signed in, the linked providers and token lifetimes.",
        discussion: """
            Exits 0 when signed in and 16 (no-current-user) when not. Reads the keystore only; a session the
            provider already ended at a refresh (invalid_grant) shows as "needs sign-in".

            With --check, the provider is asked too (token introspection where it offers it, else userinfo with
            the access token): exit 0 when it says the session is active, 4 (invalid-credential) when not.
            Nothing is written either way.

            Examples:
              authctl status
              authctl status --check    # ask the provider whether the session is still good
              authctl status --json     # for scripts: {"signedIn": …, "user": …}
            """)

    @Flag(help: "Also ask the provider whether the session is still active (introspection, else userinfo).") var check = false
    @OptionGroup var global: GlobalOptions

    /// The command as plain values, which the hand parser makes too (`StatusInvocation.parseFast`).
    var invocation: StatusInvocation { StatusInvocation(check: check, settings: settings) }

    func run(_ wiring: Wiring) async throws { try await invocation.run(wiring) }

    /// "Nobody is signed in", and when other users still have a session, who and how to switch to one.
    static func nobodyCurrent(others: [User], signIn provider: String?) -> String {
        guard let first = others.first else {
            return "authctl: nobody is signed in. Sign in with: authctl login \(provider ?? "PROVIDER")"
        }
        let names = others.prefix(5).map { "\(Output.name(of: $0)) (\($0.uid))" }.joined(separator: ", ")
        let more = others.count > 5 ? " and \(others.count - 5) more" : ""
        return
            "authctl: nobody is the current user, but \(others.count == 1 ? "another user still has" : "other users still have") a session: \(names)\(more). Switch with: authctl users use \(others.count == 1 ? first.uid : "UID")"
    }
}

/// `authctl status` as plain values: what `Status` (ArgumentParser) parses, and what the hand
/// parser makes of its common forms (`[--check]` and the global options) without ArgumentParser,
/// whose first parse was three quarters of a status's cost (issue 37: 15.0 M of 19.7 M
/// instructions). StatusParserAgreementTests holds the two to each other.
struct StatusInvocation: WiredCommand, Equatable {
    var check = false
    var settings: Wiring.Settings

    var takesUser: Bool { true }

    static func parseFast(_ arguments: [String]) -> StatusInvocation? {
        var check = false
        let settings = HandParser.parse(arguments) { parser in parser.name == "--check" && parser.flag(&check) }
        return settings.map { StatusInvocation(check: check, settings: $0) }
    }

    func run(_ wiring: Wiring) async throws {
        // Profiles only: a sealed keystore's status needs no key (its tokens say they are sealed).
        // --check needs the tokens themselves, so a sealed keystore is opened then.
        // The user a rule, --user or AUTHCTL_USER chose (docs/identities.md), else the current one.
        let chosen = try wiring.chosenIdentity()
        var state: AccountState
        if let uid = chosen.uid {
            let read = try check ? wiring.keystore().readUser(uid: uid) : wiring.keystore().readProfiles()
            state = AccountState(currentUID: uid, users: read.users.filter { $0.uid == uid })
        } else {
            state = try check ? wiring.keystore().readCurrentUser() : wiring.keystore().readCurrentUserProfile()
        }
        guard let user = state.currentUser else {
            // Another user may still have a session (the current one signed out): say who, and how to switch.
            let others = (try? wiring.keystore().readProfiles().usersByCreation.filter(Output.hasSession)) ?? []
            if settings.json {
                wiring.output.json(
                    .object(["signedIn": .bool(false), "otherSessions": .array(others.map { Output.sessionSummary($0) })]))
            }
            wiring.output.error(Status.nobodyCurrent(others: others, signIn: wiring.onlyConfiguredProvider()) + "\n")
            throw ExitCode(AuthError.Code.noCurrentUser.exitStatus)
        }
        guard check else {
            if settings.json {
                var document: [String: JSONValue] = ["signedIn": .bool(true), "user": Output.user(user)]
                if let why = chosen.sourceDescription { document["chosenBy"] = .string(why) }
                wiring.output.json(.object(document))
            } else {
                wiring.output.line("Signed in as " + Output.describe(user, now: wiring.io.clock.now()).joined(separator: "\n"))
                if let why = chosen.sourceDescription { wiring.output.line("Chosen by \(why) (the current user is unchanged).") }
            }
            return
        }
        let result = try await wiring.useCases().sessionCheck.run(user: user)
        let how = result.method == .introspection ? "token introspection" : "userinfo"
        if settings.json {
            wiring.output.json(
                .object([
                    "signedIn": .bool(true), "user": Output.user(user),
                    "check": .object([
                        "providerId": .string(result.providerID), "method": .string(result.method.rawValue), "active": .bool(result.active),
                        "detail": Output.optional(result.detail),
                    ]),
                ]))
        } else {
            wiring.output.line("Signed in as " + Output.describe(user, now: wiring.io.clock.now()).joined(separator: "\n"))
            if result.active { wiring.output.line("\(result.providerID) says the session is active (\(how)).") }
        }
        guard result.active else {
            wiring.output.error(
                "authctl: \(result.providerID) says the session is no longer active (\(how)\(result.detail.map { ": \($0)" } ?? "")). Sign in again: authctl login \(result.providerID)\n"
            )
            throw ExitCode(AuthError.Code.invalidCredential.exitStatus)
        }
    }
}
