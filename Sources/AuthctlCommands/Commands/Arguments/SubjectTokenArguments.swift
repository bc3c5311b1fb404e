import ArgumentParser
import AuthCore

/// The identity whose token a cloud command gives away, and whether it is exchanged first
/// (`aws-credentials`, `gcp-token`; docs/cloud.md).
struct SubjectTokenArguments: ParsableArguments {
    @Option(
        name: .customLong("audience"),
        help: ArgumentHelp("Give a token exchanged for this audience (RFC 8693) instead of the ID token.", valueName: "audience"))
    var audience: String?
    @Option(
        name: .customLong("subject-token-type"),
        help: ArgumentHelp(
            "With --audience: the identity's token given in exchange: access_token (default) or id_token.", valueName: "type"))
    var subjectTokenType: TokenExchange.SubjectToken?
    @Option(
        name: .customLong("provider"), help: "The identity's provider (default: the one of the last sign-in).",
        completion: Completions.providerIDs)
    var provider: String?

    func validate() throws {
        if subjectTokenType != nil, audience == nil {
            throw ValidationError("--subject-token-type belongs to --audience (a token exchange)")
        }
    }

    var providerID: ProviderID? { get throws { try provider.map(ProviderID.init(parsing:)) } }

    /// The exchange asked for with `--audience`; nil: the ID token as it is.
    var exchange: TokenExchange.Input? {
        audience.map { TokenExchange.Input(audience: $0, subjectToken: subjectTokenType ?? .accessToken) }
    }
}
