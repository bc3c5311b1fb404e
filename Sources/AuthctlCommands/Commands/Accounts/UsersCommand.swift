import ArgumentParser
import AuthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, show, switch between, delete, export and import the users in the keystore; fetch the current user's photo.",
        subcommands: [List.self, Show.self, Use.self, Delete.self, Export.self, Import.self, Photo.self])

    struct List: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every user in the keystore (* the current one; SESSION: who still has one).")
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let state = try wiring.keystore().readProfiles()
            if global.json {
                wiring.output.json(
                    .object([
                        "currentUid": Output.optional(state.currentUID),
                        "users": .array(state.usersByCreation.map(Output.user)),
                    ]))
                return
            }
            if state.users.isEmpty { wiring.output.line("No users yet. Sign in with: authctl login PROVIDER") }
            wiring.output.table(
                header: ["  UID", "EMAIL", "PROVIDERS", "BACKEND", "SESSION"],
                rows: state.usersByCreation.map { user in
                    [
                        "\(user.uid == state.currentUID ? "*" : " ") \(user.uid)",
                        user.kind == .workload ? "(workload)" : user.email ?? "-",
                        user.providerData.map(\.providerID).joined(separator: ","), Output.backendName(of: user),
                        Output.hasSession(user) ? "yes" : "signed out",
                    ]
                }, headerInPipe: true)
        }
    }

    struct Show: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a user (the current one by default).")
        @Argument(help: "The uid.", completion: Completions.uids) var uid: String?
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let user = try Accounts(keystore: wiring.keystore()).show(uid: uid)
            if global.json {
                wiring.output.json(.object(["user": Output.user(user)]))
            } else {
                wiring.output.line(Output.describe(user, now: wiring.io.clock.now()).joined(separator: "\n"))
            }
        }
    }

    struct Use: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "use", abstract: "Make another signed-in user the current one.",
            discussion: "The user is named by uid, or by email when exactly one user has it (several: their uids are listed).")
        @Argument(help: "The uid, or the email of exactly one user.", completion: Completions.uids) var uid: String
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let keystore = wiring.keystore()
            let user = try await Accounts(keystore: keystore).use(uid: try Self.resolve(uid, in: keystore.readProfiles()))
            if global.json {
                wiring.output.json(.object(["user": Output.user(user)]))
            } else {
                wiring.output.line("Now using \(Output.cell(user.email ?? user.uid)).")
            }
        }

        /// A uid as it is, else the uid of the one user with that email (compared without case).
        static func resolve(_ name: String, in state: AccountState) throws -> String {
            if state.userIndex(uid: name) != nil || !name.contains("@") { return name }
            let matches = state.usersByCreation.filter { $0.email?.lowercased() == name.lowercased() }
            guard matches.count > 1 else { return matches.first?.uid ?? name }
            throw AuthError.invalidArgument(
                Message(
                    verbatim:
                        "\(matches.count) users have the email \(Sanitize.text(name, limit: 80)): \(matches.map(\.uid).joined(separator: ", ")). Name one by uid: authctl users use UID"
                ))
        }
    }

    struct Delete: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a user (the current one by default) after revoking its tokens.",
            discussion:
                "A sensitive operation: it needs a sign-in or reauthentication in the last 5 minutes (else exit 15, requires-recent-login)."
        )
        @Argument(help: "The uid (default: the current user).", completion: Completions.uids) var uid: String?
        @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation on a terminal.") var yes = false
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            // Asked about the user it names; an unknown one is the flow's error, with no question first.
            let state = try wiring.keystore().readProfiles()
            if let user = uid.map({ uid in state.users.first { $0.uid == uid } }) ?? state.currentUser {
                try wiring.confirm(
                    "Delete the user \(Output.name(of: user)) (\(user.uid)) from the keystore, revoking its tokens?", yes: yes)
            }
            let output = try await wiring.useCases().deleteUser.run(uid: uid)
            if global.json {
                wiring.output.json(.object(["deleted": .string(output.user.uid), "revocations": Output.revocations(output.revocations)]))
                return
            }
            wiring.output.report(output.revocations)
            wiring.output.line("Deleted user \(Output.name(of: output.user)) (\(output.user.uid)).")
        }
    }

    struct Export: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the users (never their tokens) as JSON on stdout.",
            discussion:
                "--format authctl (default) round-trips through 'authctl users import'; --format firebase writes the users[] JSON of Firebase's auth:export."
        )
        @Option(help: "authctl or firebase.") var format: ExportFormat = .authctl
        @OptionGroup var global: GlobalOptions

        enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
            case authctl, firebase
        }

        func run(_ wiring: Wiring) async throws {
            let format: UserExport.Format =
                switch format {
                case .authctl: .authctl
                case .firebase: .firebase
                }
            let data = try Accounts(keystore: wiring.keystore()).export(format: format)
            wiring.output.write(Output.visibleJSON(data) + Data("\n".utf8))
        }
    }

    struct Import: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the users of an authctl export to the keystore (all or nothing).",
            discussion: "Imported users are signed out: an export holds no token. A user already present with the same record is skipped.")
        @Argument(help: "The file written by 'authctl users export' ('-' for stdin).", completion: .file()) var file: String
        @OptionGroup var global: GlobalOptions

        /// 64 MiB is far more than any export of a local keystore (1,000 users take about 1 MiB).
        static let limit = 64 << 20

        func run(_ wiring: Wiring) async throws {
            let data: Data
            if file == "-" {
                // Ctrl-C ends the wait.
                do {
                    data = try wiring.io.stdin.readToEnd(limit: Self.limit)
                } catch is InputTooLarge {
                    throw AuthError.invalidArgument(
                        "stdin holds more than 64 MiB, which is no authctl export. Give the file written by: \(command: .usersExport)")
                }
            } else {
                data = try wiring.readBounded(file, limit: Self.limit, tooLarge: "holds more than 64 MiB, which is no authctl export") {
                    .invalidArgument("\(file) \($0). Give the path of a file written by: \(command: .usersExport)")
                }
            }
            let result = try await Accounts(keystore: wiring.keystore()).importUsers(
                data, file: file == "-" ? "stdin" : file)
            if global.json {
                wiring.output.json(
                    .object([
                        "imported": .array(result.imported.map(JSONValue.string)),
                        "unchanged": .array(result.unchanged.map(JSONValue.string)),
                    ]))
            } else {
                wiring.output.line("Imported \(result.imported.count) user(s); \(result.unchanged.count) already present and unchanged.")
            }
        }
    }

    struct Photo: AuthctlCommand {
        var takesUser: Bool { true }

        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Fetch the current user's photo from the provider (Microsoft Graph).",
            discussion:
                "Binary image data: written to --output (mode 0600), or to stdout when it is not a terminal. Nothing is stored in the keystore."
        )
        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write the image to.", valueName: "file"), completion: .file())
        var output: String?
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            if output == nil, global.json {
                throw AuthError.invalidArgument("with --json, stdout carries JSON: write the photo to a file with --output FILE")
            }
            if output == nil, wiring.io.stdout.isTerminal {
                throw AuthError.invalidArgument(
                    "the photo is binary and stdout is a terminal. Write it to a file: authctl users photo --output photo.jpg")
            }
            // The user `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current one.
            let chosen = try wiring.chosenIdentity()
            let photo = try await wiring.useCases().userPhoto.run(uid: chosen.uid, chosenBy: chosen.chosenBy)
            guard let output else {
                wiring.output.write(photo.data)
                return
            }
            try wiring.writePrivateFile(photo.data, to: output, what: "the photo", directory: .any)
            if global.json {
                wiring.output.json(
                    .object([
                        "providerId": .string(photo.providerID), "file": .string(output), "bytes": .number(Double(photo.data.count)),
                        "contentType": Output.optional(photo.contentType),
                    ]))
            } else {
                wiring.output.line(
                    "Wrote the \(photo.providerID) photo (\(photo.data.count) bytes\(photo.contentType.map { ", \($0)" } ?? "")) to \(output)."
                )
            }
        }
    }
}
