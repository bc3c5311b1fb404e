import ArgumentParser
import AuthCore

struct UnlinkCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "Remove a provider (and its tokens) from the current user.",
        discussion: "Its refresh token is revoked first where the provider offers revocation; the result is reported.")

    @Argument(help: "The provider to unlink: microsoft.com, apple.com or oidc.NAME.", completion: Completions.providerIDs) var provider:
        String
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let output = try await wiring.useCases().unlink.run(providerID: try ProviderID(parsing: provider))
        let revocations = output.revocation.map { [$0] } ?? []
        if global.json {
            wiring.output.json(
                .object([
                    "user": Output.user(output.user), "providerId": .string(output.providerID),
                    "revocations": Output.revocations(revocations),
                ]))
            return
        }
        wiring.output.report(revocations)
        wiring.output.line("Unlinked \(output.providerID) from \(Output.name(of: output.user)).")
    }
}
