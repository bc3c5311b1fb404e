import ArgumentParser
import AuthCore
import Foundation

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to a provider through the browser.",
        discussion: "Opens the provider's sign-in page and waits for it to redirect back to a listener on 127.0.0.1.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider: microsoft.com (or microsoft) or oidc.NAME (apple.com comes later).") var provider: String
    @OptionGroup var flow: FlowArguments

    func run() async throws {
        let wiring = Wiring(options: global)
        let providerID = try ProviderID(parsing: provider)
        let environment = wiring.authEnvironment(browser: wiring.browser(command: flow.browserCommand, disabled: flow.noBrowser))
        let output = try await SignIn(environment: environment).run(.init(providerID: providerID, options: try flow.flowOptions()))
        if global.json {
            Output.json(
                .object(["user": Output.user(output.user), "providerId": .string(output.providerID), "isNewUser": .bool(output.isNewUser)]))
        } else {
            let who = output.user.email ?? output.user.displayName ?? output.user.uid
            Output.line("Signed in to \(output.providerID) as \(who)\(output.isNewUser ? " (new user \(output.user.uid))" : "").")
        }
    }
}
