import ArgumentParser
import AuthCore

struct ReauthCommand: AuthctlCommand {
    var signsIn: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "reauth",
        abstract: "Sign in again with an identity the current user already has: fresh tokens and a recent sign-in time.")

    @Argument(help: "The provider: microsoft.com, apple.com or oidc.NAME.", completion: Completions.providerIDs) var provider: String
    @OptionGroup var flow: FlowArguments
    @OptionGroup var credential: CredentialArguments
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let providerID = try ProviderID(parsing: provider)
        let reauthenticate = try wiring.useCases(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser))
            .reauthenticate()
        let user = try await reauthenticate.run(
            .init(providerID: providerID, source: credential.source(flow: flow, wiring: wiring)))
        wiring.output.accountResult(
            user: user, providerID: providerID.rawValue, isNewUser: false, json: global.json,
            text: "Reauthenticated \(Output.name(of: user)) with \(providerID).")
    }
}
