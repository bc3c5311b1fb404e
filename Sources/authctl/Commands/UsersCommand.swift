import ArgumentParser
import AuthCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, show, switch between, delete, export and import the users in the keystore; fetch the current user's photo.",
        subcommands: [List.self, Show.self, Use.self, Delete.self, Export.self, Import.self, Photo.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every user in the keystore.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let state = try Wiring(options: global).keystore().read()
            if global.json {
                Output.json(
                    .object([
                        "currentUid": Output.optional(state.currentUID),
                        "users": .array(state.users.map(Output.user)),
                    ]))
                return
            }
            if state.users.isEmpty { Output.line("No users yet. Sign in with: authctl login PROVIDER") }
            Output.table(
                header: ["  UID", "EMAIL", "PROVIDERS"],
                rows: state.users.map { user in
                    [
                        "\(user.uid == state.currentUID ? "*" : " ") \(user.uid)", user.email ?? "-",
                        user.providerData.map(\.providerID).joined(separator: ","),
                    ]
                })
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a user (the current one by default).")
        @Argument(help: "The uid.", completion: Completions.uids) var uid: String?
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let wiring = Wiring(options: global)
            let user = try Accounts(keystore: wiring.keystore()).show(uid: uid)
            if global.json {
                Output.json(.object(["user": Output.user(user)]))
            } else {
                Output.line(Output.describe(user, now: SystemClock().now()).joined(separator: "\n"))
            }
        }
    }

    struct Use: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "use", abstract: "Make another signed-in user the current one.")
        @Argument(help: "The uid.", completion: Completions.uids) var uid: String
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let user = try await Accounts(keystore: Wiring(options: global).keystore()).use(uid: uid)
            if global.json {
                Output.json(.object(["user": Output.user(user)]))
            } else {
                Output.line("Now using \(user.email ?? user.uid).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a user (the current one by default) after revoking its tokens.",
            discussion:
                "A sensitive operation: it needs a sign-in or reauthentication in the last 5 minutes (else exit 15, requires-recent-login)."
        )
        @Argument(help: "The uid (default: the current user).", completion: Completions.uids) var uid: String?
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let output = try await Wiring(options: global).authEnvironment().deleteUser.run(uid: uid)
            if global.json {
                Output.json(.object(["deleted": .string(output.user.uid), "revocations": Output.revocations(output.revocations)]))
                return
            }
            Output.report(output.revocations)
            Output.line("Deleted user \(Output.name(of: output.user)) (\(output.user.uid)).")
        }
    }

    struct Export: AsyncParsableCommand {
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

        func run() async throws {
            let format: UserExport.Format =
                switch format {
                case .authctl: .authctl
                case .firebase: .firebase
                }
            let data = try Accounts(keystore: Wiring(options: global).keystore()).export(format: format)
            StandardStreams.writeOutput(data + Data("\n".utf8))
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the users of an authctl export to the keystore (all or nothing).",
            discussion: "Imported users are signed out: an export holds no token. A user already present with the same record is skipped.")
        @Argument(help: "The file written by 'authctl users export' ('-' for stdin).") var file: String
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let data: Data
            if file == "-" {
                // Ctrl-C ends the wait; 64 MiB is far more than any export of a local keystore.
                do {
                    data = try StandardInput.readToEnd(limit: 64 << 20)
                } catch is StandardInput.TooLarge {
                    throw AuthError.invalidArgument(
                        "stdin holds more than 64 MiB, which is no authctl export. Give the file written by: authctl users export")
                }
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw AuthError.invalidArgument("cannot read '\(file)'. Give the path of a file written by: authctl users export")
                }
                data = contents
            }
            let result = try await Accounts(keystore: Wiring(options: global).keystore()).importUsers(
                data, file: file == "-" ? "stdin" : file)
            if global.json {
                Output.json(
                    .object([
                        "imported": .array(result.imported.map(JSONValue.string)),
                        "unchanged": .array(result.unchanged.map(JSONValue.string)),
                    ]))
            } else {
                Output.line("Imported \(result.imported.count) user(s); \(result.unchanged.count) already present and unchanged.")
            }
        }
    }

    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Fetch the current user's photo from the provider (Microsoft Graph).",
            discussion:
                "Binary image data: written to --output (mode 0600), or to stdout when it is not a terminal. Nothing is stored in the keystore."
        )
        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write the image to.", valueName: "file")) var output: String?
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            if output == nil, global.json {
                throw AuthError.invalidArgument("with --json, stdout carries JSON: write the photo to a file with --output FILE")
            }
            if output == nil, isatty(STDOUT_FILENO) == 1 {
                throw AuthError.invalidArgument(
                    "the photo is binary and stdout is a terminal. Write it to a file: authctl users photo --output photo.jpg")
            }
            let wiring = Wiring(options: global)
            let photo = try await wiring.authEnvironment().userPhoto.run()
            guard let output else {
                StandardStreams.writeOutput(photo.data)
                return
            }
            try SafeFile.writeAtomically(photo.data, to: output, what: "the photo", random: SystemRandomSource(), directory: .any)
            if global.json {
                Output.json(
                    .object([
                        "providerId": .string(photo.providerID), "file": .string(output), "bytes": .number(Double(photo.data.count)),
                        "contentType": Output.optional(photo.contentType),
                    ]))
            } else {
                Output.line(
                    "Wrote the \(photo.providerID) photo (\(photo.data.count) bytes\(photo.contentType.map { ", \($0)" } ?? "")) to \(output)."
                )
            }
        }
    }
}
