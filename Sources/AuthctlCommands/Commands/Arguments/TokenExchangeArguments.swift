import ArgumentParser
import AuthCore

/// `authctl token`'s options for cloud credentials (docs/cloud.md): a token exchange
/// (RFC 8693, `--exchange`) and a private token file (`--output-file`, Azure's
/// `AZURE_FEDERATED_TOKEN_FILE`).
struct TokenExchangeArguments: ParsableArguments {
    @Flag(
        name: .customLong("exchange"),
        help: "Exchange the identity's token at its provider for a token for --audience or --resource (RFC 8693), cached until it expires.")
    var exchange = false
    @Option(
        name: .customLong("audience"),
        help: ArgumentHelp("With --exchange: the token's audience, a name the provider knows.", valueName: "audience"))
    var audience: String?
    @Option(
        name: .customLong("resource"),
        help: ArgumentHelp(
            "With --exchange: the resource (an absolute URL) the token is for. Without: the token of the current user's grant for this resource URL (signed in with: authctl login URL).",
            valueName: "url"))
    var resource: String?
    @Option(
        name: .customLong("requested-token-type"),
        help: ArgumentHelp("With --exchange: the type of token asked: access_token, id_token, jwt, or a URN.", valueName: "type"))
    var requestedTokenType: String?
    @Option(
        name: .customLong("subject-token-type"),
        help: ArgumentHelp(
            "With --exchange: the identity's token given in exchange: access_token (default) or id_token.", valueName: "type"))
    var subjectTokenType: TokenExchange.SubjectToken?
    @Option(
        name: .customLong("actor-token-file"),
        help: ArgumentHelp("With --exchange: a file holding the actor token (delegation), read afresh each time.", valueName: "path"),
        completion: .file())
    var actorTokenFile: String?
    @Option(
        name: .customLong("actor-token-env"),
        help: ArgumentHelp("With --exchange: an environment variable holding the actor token (delegation).", valueName: "var"))
    var actorTokenEnv: String?
    @Option(
        name: .customLong("actor-token-type"),
        help: ArgumentHelp("With an actor token: its type (default jwt): access_token, id_token, jwt, or a URN.", valueName: "type"))
    var actorTokenType: String?
    @Option(
        name: .customLong("output-file"),
        help: ArgumentHelp(
            "Write the token alone (no newline) to this file, mode 0600, atomically, instead of stdout (Azure's AZURE_FEDERATED_TOKEN_FILE).",
            valueName: "path"),
        completion: .file())
    var outputFile: String?

    /// The rules ArgumentParser cannot say, checked with the rest of `authctl token`'s options.
    func validate(idToken: Bool, accessToken: Bool, format: Token.Format) throws {
        let exchangeOnly: [(String, Bool)] = [
            // `--resource` alone is a resource grant's token (docs/resources.md).
            ("--audience", audience != nil), ("--requested-token-type", requestedTokenType != nil),
            ("--subject-token-type", subjectTokenType != nil), ("--actor-token-file", actorTokenFile != nil),
            ("--actor-token-env", actorTokenEnv != nil), ("--actor-token-type", actorTokenType != nil),
        ]
        if !exchange, let (name, _) = exchangeOnly.first(where: \.1) {
            throw ValidationError("\(name) belongs to a token exchange: add --exchange")
        }
        if exchange {
            guard audience != nil || resource != nil else {
                throw ValidationError("--exchange needs --audience or --resource: what the new token is for")
            }
            guard !idToken, !accessToken else {
                throw ValidationError("--exchange prints the exchanged token: choose the token given in exchange with --subject-token-type")
            }
            for (name, value) in [
                ("--audience", audience), ("--requested-token-type", requestedTokenType), ("--actor-token-type", actorTokenType),
            ] {
                if let value, !Self.isVisible(value) { throw ValidationError("\(name) takes visible characters, no spaces") }
            }
            if let resource {
                guard let url = URL(string: resource), url.scheme != nil, url.host != nil, url.fragment == nil else {
                    throw ValidationError(
                        "--resource takes an absolute URL without a fragment (RFC 8707), such as https://api.example.com/")
                }
            }
            guard actorTokenFile == nil || actorTokenEnv == nil else {
                throw ValidationError("--actor-token-file and --actor-token-env exclude each other: give the actor token one way")
            }
            if actorTokenType != nil, actorTokenFile == nil, actorTokenEnv == nil {
                throw ValidationError("--actor-token-type needs --actor-token-file or --actor-token-env")
            }
        }
        if let outputFile {
            guard !outputFile.trimming(.whitespacesAndNewlines).isEmpty, !outputFile.contains(where: \.isNewline) else {
                throw ValidationError("--output-file '\(outputFile)' is not a path")
            }
            guard format == .raw else { throw ValidationError("--output-file writes the token alone: leave out --format") }
        }
    }

    static func isVisible(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 2048 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// The exchange asked, nil without `--exchange`.
    func input(provider: String?, scopes: [String], minimumTTL: Int, forceRefresh: Bool) throws -> TokenExchange.Input? {
        guard exchange else { return nil }
        let actor: TokenExchange.ActorTokenSource? = actorTokenFile.map { .file($0) } ?? actorTokenEnv.map { .environment($0) }
        return TokenExchange.Input(
            providerID: try provider.map(ProviderID.init(parsing:)), audience: audience, resource: resource, scopes: scopes,
            requestedTokenType: requestedTokenType, subjectToken: subjectTokenType ?? .accessToken, actorToken: actor,
            actorTokenType: actorTokenType, minimumTTL: TimeInterval(minimumTTL), forceRefresh: forceRefresh)
    }
}

extension TokenExchange.SubjectToken: ExpressibleByArgument {}

extension Token {
    /// `--exchange` or `--output-file`: handled here; false: the plain token path.
    func runCloud(_ wiring: Wiring) async throws -> Bool {
        guard cloud.exchange || cloud.outputFile != nil else { return false }
        // The identity `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current user.
        let chosen = try wiring.chosenIdentity()
        if var exchangeInput = try cloud.input(
            provider: provider ?? chosen.provider, scopes: scopes, minimumTTL: minimumTTL, forceRefresh: forceRefresh)
        {
            exchangeInput.uid = chosen.uid
            exchangeInput.chosenBy = chosen.chosenBy
            let output = try await wiring.useCases().tokenExchange.run(exchangeInput).requireBearer(
                for: "what reads the token token --exchange prints")
            let printed = Self.printed(output, format: global.json ? .json : format)
            if let path = cloud.outputFile {
                try TokenFile.write(output.token, to: path, wiring: wiring)
            } else {
                wiring.output.write(printed)
            }
            return true
        }
        guard let path = cloud.outputFile else { return false }
        let environment = wiring.useCases()
        if let resource = cloud.resource {
            // A resource grant's token (docs/resources.md).
            let found = try await environment.resourceTokens.token(
                for: try ResourceIdentifier(parsing: resource).url, minimumTTL: TimeInterval(minimumTTL), forceRefresh: forceRefresh,
                uid: chosen.uid, chosenBy: chosen.chosenBy)
            try TokenFile.write(found.accessToken, to: path, wiring: wiring)
            return true
        }
        let output = try await environment.tokenRefresh.run(try request.input(chosen)).requireBearer(for: "a token file")
        if let stale = output.stillValidEvent(now: environment.clock.now()) { environment.events.report(stale) }
        try TokenFile.write(output.token, to: path, wiring: wiring)
        return true
    }

    /// An exchanged token in the format asked (the formats of `authctl token`).
    static func printed(_ output: TokenExchange.Output, format: Format) -> Data {
        switch format {
        case .raw:
            return TokenOutputBytes.data(output.token + "\n")
        case .header, .headersJSON:
            return TokenInvocation.headers(authorization: "Bearer " + output.token, dpop: nil, format: format)
        case .env:
            return TokenOutputBytes.data("export AUTHCTL_TOKEN=" + TokenInvocation.shellWord(output.token) + "\n")
        case .json:
            return Output.jsonDocument(
                .object([
                    "providerId": .string(output.providerID),
                    "tokenType": .string(output.tokenType),
                    "accessToken": .string(output.token),
                    "issuedTokenType": output.issuedTokenType.map(JSONValue.string) ?? .null,
                    "expiresAt": Output.timestamp(output.expiresAt),
                    "scopes": .array(output.scopes.map(JSONValue.string)),
                    "exchanged": .bool(output.exchanged),
                ]))
        case .kubectlExec:
            var status: [String: JSONValue] = ["token": .string(output.token)]
            if let expiresAt = output.expiresAt { status["expirationTimestamp"] = .string(Output.rfc3339(expiresAt)) }
            return Output.jsonDocument(
                .object([
                    "apiVersion": .string("client.authentication.k8s.io/v1"), "kind": .string("ExecCredential"), "status": .object(status),
                ]))
        }
    }
}

/// `--output-file`: the token alone, no newline (what a projected Kubernetes token file holds,
/// and what Azure's `AZURE_FEDERATED_TOKEN_FILE` readers take as it is), written 0600 and
/// atomically in a directory only its owner may write.
enum TokenFile {
    static func write(_ token: String, to path: String, wiring: Wiring) throws {
        try wiring.writePrivateFile(Data(token.utf8), to: path, what: "the token file")
    }
}
