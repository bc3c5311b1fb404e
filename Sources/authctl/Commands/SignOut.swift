import ArgumentParser
import AuthCore
import Foundation

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "End the session: drop the tokens and clear the current user.",
        discussion: "The user and its linked identities stay, so the next sign-in finds the same uid.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Sign out every user, not only the current one.") var all = false
    @Flag(help: "First revoke the refresh tokens at providers that support it, and report each result.") var revoke = false

    func run() async throws {
        let wiring = Wiring(options: global)
        let output = try await SignOut(environment: wiring.authEnvironment()).run(.init(all: all, revoke: revoke))
        if global.json {
            Output.json(
                .object([
                    "signedOut": .array(output.signedOut.map(JSONValue.string)),
                    "revocations": .array(
                        output.revocations.map { revocation in
                            .object([
                                "uid": .string(revocation.uid), "providerId": .string(revocation.providerID),
                                "result": .string(revocation.result.rawValue), "message": Output.optional(revocation.message),
                            ])
                        }),
                ]))
            return
        }
        for revocation in output.revocations {
            let detail = revocation.message.map { ": \($0)" } ?? ""
            let text =
                switch revocation.result {
                case .revoked: "revoked the \(revocation.providerID) refresh token"
                case .notSupported: "\(revocation.providerID) offers no revocation; its tokens were only deleted here"
                case .failed: "could not revoke the \(revocation.providerID) token\(detail); it was deleted here anyway"
                }
            FileHandle.standardError.write(Data("authctl: \(text)\n".utf8))
        }
        Output.line(
            output.signedOut.isEmpty
                ? "Nobody was signed in."
                : "Signed out \(output.signedOut.count == 1 ? "" : "\(output.signedOut.count) users ")(\(output.signedOut.joined(separator: ", ")))."
        )
    }
}
