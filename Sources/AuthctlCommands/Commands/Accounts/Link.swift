import ArgumentParser
import AuthCore

struct LinkCommand: AuthctlCommand {
    var signsIn: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Link another provider to the current user.",
        discussion: """
            With --pending HANDLE, links the credential saved by an earlier account-exists-with-different-credential error.

            Examples:
              # add Sign in with Apple to the current user
              authctl link apple
              authctl link --pending pc_0123456789    # finish what a conflict saved
            """)

    @Argument(
        help: "The provider to link: microsoft.com, apple.com or oidc.NAME (not needed with --pending).",
        completion: Completions.providerIDs) var provider: String?
    @OptionGroup var flow: FlowArguments
    @OptionGroup var credential: CredentialArguments
    @Option(name: .customLong("pending"), help: ArgumentHelp("Link a pending credential (its pc_ handle).", valueName: "handle"))
    var pendingHandle: String?
    @Flag(help: "Agree to link a private-relay (hidden email) identity with another one, without being asked.")
    var consent = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if pendingHandle != nil, credential.idToken != nil { throw ValidationError("give either --pending or --id-token, not both") }
        if pendingHandle == nil, provider == nil { throw ValidationError("name the provider: authctl link PROVIDER") }
    }

    func run(_ wiring: Wiring) async throws {
        let link = try wiring.useCases(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser)).link()
        let source = try pendingHandle.map { CredentialSource.pending(handle: $0) } ?? credential.source(flow: flow, wiring: wiring)
        let output = try await link.run(
            .init(providerID: try provider.map(ProviderID.init(parsing:)), source: source, consent: consent))
        wiring.output.accountResult(
            user: output.user, providerID: output.providerID, isNewUser: false, json: global.json,
            text:
                "Linked \(output.providerID) to \(Output.name(of: output.user)) (\(output.user.providerData.map(\.providerID).joined(separator: ", ")))."
        )
    }
}
