import ArgumentParser
import AuthCore

/// The options of `login URL` (docs/resources.md).
struct ResourceLoginArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With a resource's URL: the authorization server to sign in at, one of those the resource lists (default: the first).",
            valueName: "issuer"))
    var issuer: String?

    @Option(
        name: .customLong("client-metadata-url"),
        help: ArgumentHelp(
            "With a resource's URL: the https URL of your client ID metadata document, used as the client id where the server supports them.",
            valueName: "url"))
    var clientMetadataURL: String?

    @Option(
        name: .customLong("provider"),
        help: ArgumentHelp(
            "With a resource's URL: sign in through this configured provider, a client of the resource's server; naming it is your consent to use it for a resource on another origin.",
            valueName: "provider"), completion: Completions.providerIDs)
    var provider: String?

    @Option(
        name: .customLong("via"),
        help: ArgumentHelp(
            "With a resource's URL: no browser; exchange your identity at this provider (your company's identity provider) for a grant the resource's authorization server trusts (identity chaining).",
            valueName: "provider"), completion: Completions.providerIDs)
    var via: String?

    @Option(
        name: .customLong("requested-token-type"),
        help: ArgumentHelp("With --via: the grant to ask the provider for, id-jag (default) or jwt.", valueName: "type"))
    var requestedTokenType: ResourceChain.GrantType?
}

extension ResourceChain.GrantType: ExpressibleByArgument {}
