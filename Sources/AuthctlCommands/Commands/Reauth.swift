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
        let environment = wiring.authEnvironment(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser))
        let providerID = try ProviderID(parsing: provider)
        if let output = try await wiring.firebaseAccountOperation(
            .reauthenticate, provider: provider, flow: flow, credential: credential, pending: nil, environment: environment)
        {
            // SPEC §9: `autoCreate: false`, and the uid checked.
            wiring.output.accountResult(
                user: output.user, providerID: providerID.rawValue, isNewUser: false, json: global.json,
                text: "Reauthenticated \(Output.name(of: output.user)) with \(providerID).")
            return
        }
        let user = try await environment.reauthenticate.run(
            .init(providerID: providerID, source: credential.source(flow: flow, wiring: wiring)))
        wiring.output.accountResult(
            user: user, providerID: providerID.rawValue, isNewUser: false, json: global.json,
            text: "Reauthenticated \(Output.name(of: user)) with \(providerID).")
    }
}
