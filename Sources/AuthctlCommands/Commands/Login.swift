import ArgumentParser
import AuthCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct Login: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a provider through the browser (or with an ID token, or a pending credential).",
        discussion: """
            Opens the provider's sign-in page and waits for it to redirect back to a listener on 127.0.0.1.
            With --id-token - the ID token is read from stdin instead; with --credential HANDLE a pending credential \
            saved by an earlier conflict is applied (see docs/accounts.md).
            """)

    @Argument(
        help: "The provider: microsoft.com (or microsoft), apple.com (or apple) or oidc.NAME; not needed with --credential.",
        completion: Completions.providerIDs)
    var provider: String?
    @OptionGroup var flow: FlowArguments
    @OptionGroup var credential: CredentialArguments
    @Option(
        name: .customLong("credential"),
        help: ArgumentHelp(
            "Apply a pending credential (its pc_ handle) saved by an earlier credential-already-in-use error.", valueName: "handle"))
    var pendingHandle: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if pendingHandle != nil, credential.idToken != nil { throw ValidationError("give either --credential or --id-token, not both") }
        if pendingHandle == nil, provider == nil { throw ValidationError("name the provider: authctl login PROVIDER") }
    }

    func run(_ wiring: Wiring) async throws {
        let environment = wiring.authEnvironment(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser))
        let output: SignIn.Output
        if let firebase = try await wiring.firebaseAccountOperation(
            .signIn, provider: provider, flow: flow, credential: credential, pending: pendingHandle, environment: environment)
        {
            output = firebase  // SPEC §9: the Firebase project holds the users
        } else {
            let source = try pendingHandle.map { CredentialSource.pending(handle: $0) } ?? credential.source(flow: flow, wiring: wiring)
            output = try await environment.signIn.run(.init(providerID: try provider.map(ProviderID.init(parsing:)), source: source))
        }
        wiring.output.accountResult(
            user: output.user, providerID: output.providerID, isNewUser: output.isNewUser, json: global.json,
            text:
                "Signed in to \(output.providerID) as \(Output.name(of: output.user))\(output.isNewUser ? " (new user \(output.user.uid))" : "")."
        )
    }
}
