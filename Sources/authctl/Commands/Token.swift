import ArgumentParser
import AuthCore
import Foundation

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (or ID token) of the current user.",
        discussion:
            "Refreshes the token first when it expires within --min-ttl seconds. A valid cached token is printed without any network request."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case raw, json, header, env
        case kubectlExec = "kubectl-exec"
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider (default: the one of the last sign-in).") var provider: String?
    @Flag(name: .customLong("id-token"), help: "Print the ID token instead of the access token.") var idToken = false
    @Option(
        name: .customLong("min-ttl"), help: ArgumentHelp("Refresh when the token expires within this many seconds.", valueName: "seconds"))
    var minimumTTL: Int = 60
    @Flag(name: .customLong("force-refresh"), help: "Refresh even when the cached token is still valid.") var forceRefresh = false
    @Option(help: "How to print the token: raw, json, header, env, kubectl-exec.") var format: Format = .raw
    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Print an access token for these scopes instead, obtained with the refresh token and cached (repeatable; Microsoft: another resource, e.g. https://graph.microsoft.com/.default).",
            valueName: "scope"))
    var scopes: [String] = []

    func validate() throws {
        guard minimumTTL >= 0 else { throw ValidationError("--min-ttl must be zero or more seconds") }
        guard scopes.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.contains(" ") }) else {
            throw ValidationError("--scope takes one scope each time (no spaces); repeat it for several")
        }
    }

    func run() async throws {
        let wiring = Wiring(options: global)
        let input = TokenRefresh.Input(
            providerID: try provider.map(ProviderID.init(parsing:)), idToken: idToken,
            minimumTTL: TimeInterval(minimumTTL), forceRefresh: forceRefresh, scopes: scopes)
        let output = try await TokenRefresh(environment: wiring.authEnvironment()).run(input)
        switch global.json ? .json : format {
        case .raw:
            Output.line(output.token)
        case .header:
            Output.line("Authorization: Bearer \(output.token)")
        case .env:
            Output.line("AUTHCTL_TOKEN=\(output.token)")
        case .json:
            Output.json(
                .object([
                    "providerId": .string(output.providerID),
                    "tokenType": .string(output.tokenType),
                    output.isIDToken ? "idToken" : "accessToken": .string(output.token),
                    "expiresAt": Output.timestamp(output.expiresAt),
                    "scopes": .array(output.scopes.map(JSONValue.string)),
                ]))
        case .kubectlExec:
            var status: [String: JSONValue] = ["token": .string(output.token)]
            if let expiresAt = output.expiresAt { status["expirationTimestamp"] = .string(Output.rfc3339(expiresAt)) }
            Output.json(
                .object([
                    "apiVersion": .string("client.authentication.k8s.io/v1"),
                    "kind": .string("ExecCredential"),
                    "status": .object(status),
                ]))
        }
    }
}
