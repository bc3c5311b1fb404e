import ArgumentParser
import AuthCore
import Foundation

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List, show and switch between the users in the keystore.",
        subcommands: [List.self, Show.self, Use.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every user in the keystore.")
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
            for user in state.users {
                let marker = user.uid == state.currentUID ? "*" : " "
                Output.line("\(marker) \(user.uid)\t\(user.email ?? "-")\t\(user.providerData.map(\.providerID).joined(separator: ","))")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a user (the current one by default).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The uid.") var uid: String?

        func run() async throws {
            let wiring = Wiring(options: global)
            let user = try Accounts(environment: wiring.authEnvironment()).show(uid: uid)
            if global.json {
                Output.json(.object(["user": Output.user(user)]))
            } else {
                Output.line(Output.describe(user, now: SystemClock().now()).joined(separator: "\n"))
            }
        }
    }

    struct Use: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make another signed-in user the current one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The uid.") var uid: String

        func run() async throws {
            let user = try await Accounts(environment: Wiring(options: global).authEnvironment()).use(uid: uid)
            if global.json {
                Output.json(.object(["user": Output.user(user)]))
            } else {
                Output.line("Now using \(user.email ?? user.uid).")
            }
        }
    }
}
