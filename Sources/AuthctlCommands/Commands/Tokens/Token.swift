import ArgumentParser
import AuthCore

struct Token: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (or ID token) of the current user.",
        discussion: """
            Refreshes the token first when it expires within --min-ttl seconds. A valid cached token is printed without any \
            network request. When that early refresh cannot reach the provider, the token is still printed while it is \
            valid, with a warning on stderr (exit 0); once it has expired, or with --force-refresh, the command fails \
            (exit 3).

            Examples:
              # the access token, for a script
              authctl token
              # the ID token
              authctl token --id-token
              # never on curl's command line
              authctl token --format header | curl -H @- https://api.example.com/
              authctl token microsoft --scope https://graph.microsoft.com/.default
              # a DPoP-bound token: its header and a proof for that request
              authctl token --format header --method GET --url \\
                  https://api.example.com/v1/me | curl -H @- https://api.example.com/v1/me
              # RFC 8693, cached
              authctl token --exchange --audience https://api.example.com
              # 0600, atomically
              authctl token --id-token --output-file ~/.azure/federated-token
              # a resource's token (see resources.md)
              authctl token --resource https://api.example.com/mcp
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case raw, json, header, env
        case kubectlExec = "kubectl-exec"
        /// One JSON object of the request's headers: what agents' header helpers read.
        case headersJSON = "headers-json"
    }

    @Argument(help: "The provider (default: the one of the last sign-in).", completion: Completions.providerIDs) var provider: String?
    @Flag(name: .customLong("id-token"), help: "Print the ID token instead of the access token.") var idToken = false
    @Flag(
        name: .customLong("access-token"),
        help: "Print the access token even with --format kubectl-exec (which gives the ID token, what a Kubernetes API server checks).")
    var accessToken = false
    @Option(
        name: .customLong("min-ttl"), parsing: .unconditional,
        help: ArgumentHelp("Refresh when the token expires within this many seconds.", valueName: "seconds"))
    var minimumTTL: Int = 60
    @Flag(name: .customLong("force-refresh"), help: "Refresh even when the cached token is still valid.") var forceRefresh = false
    @Option(
        help:
            "How to print the token: raw, json, header, env, kubectl-exec (an ExecCredential with the ID token), headers-json (a JSON object of the request's headers, for agents' header helpers)."
    )
    var format: Format = .raw
    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Print an access token for these scopes instead, obtained with the refresh token and cached (repeatable; Microsoft: another resource, e.g. https://graph.microsoft.com/.default).",
            valueName: "scope"))
    var scopes: [String] = []
    @Option(
        help: ArgumentHelp(
            "The method of the request the token is for: with --url, a DPoP-bound token gets a proof for that request (RFC 9449).",
            valueName: "method"))
    var method: String?
    @Option(help: ArgumentHelp("The URL of the request the token is for (with --method).", valueName: "url")) var url: String?

    /// `--min-ttl`'s range (docs/configuration.md): up to a day ahead.
    static let minimumTTLRange = 0...86_400
    /// `--exchange` and its options, `--output-file` (docs/cloud.md).
    @OptionGroup var cloud: TokenExchangeArguments
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard !(idToken && accessToken) else {
            throw ValidationError("--id-token and --access-token exclude each other: give the one token to print")
        }
        guard Self.minimumTTLRange.contains(minimumTTL) else {
            throw ValidationError("--min-ttl \(minimumTTL) is out of range: give 0…86400 seconds (a day at most)")
        }
        // Without --exchange, --resource names a resource grant's token (docs/resources.md).
        if !cloud.exchange, cloud.resource != nil, provider != nil || idToken || !scopes.isEmpty {
            throw ValidationError("--resource names the token itself: give no provider, --id-token or --scope with it")
        }
        guard scopes.allSatisfy(ScopeSyntax.isValid) else {
            throw ValidationError("--scope takes one scope each time (printable ASCII, no spaces); repeat it for several")
        }
        _ = try TokenInvocation.ProofTarget(method: method, url: url)
        try cloud.validate(idToken: idToken, accessToken: accessToken, format: format)
        if cloud.exchange || cloud.outputFile != nil, method != nil || url != nil {
            throw ValidationError("--method and --url prove a DPoP-bound token; an exchanged token or a token file takes neither")
        }
    }

    /// The options as plain values.
    var request: TokenInvocation {
        TokenInvocation(
            settings: settings, provider: provider, idToken: idToken, accessToken: accessToken,
            minimumTTL: minimumTTL, forceRefresh: forceRefresh, format: format, scopes: scopes,
            proofTarget: try? TokenInvocation.ProofTarget(method: method, url: url),
            resource: cloud.exchange ? nil : cloud.resource)
    }

    func run(_ wiring: Wiring) async throws {
        if try await runCloud(wiring) { return }
        try await request.run(wiring)
    }
}

/// What `authctl token` was asked, as plain values: the command above fills it through
/// ArgumentParser; the hot path fills it with `parseFast` and skips ArgumentParser entirely.
struct TokenInvocation: Equatable, WiredCommand {
    var takesUser: Bool { true }
    var settings: Wiring.Settings
    var provider: String?
    var idToken = false
    var accessToken = false
    var minimumTTL = 60
    var forceRefresh = false
    var format: Token.Format = .raw
    var scopes: [String] = []
    /// `--method` and `--url`: the request a DPoP-bound token's proof is made for.
    var proofTarget: ProofTarget? = nil
    /// `--resource URL` (docs/resources.md); never on the hot path.
    var resource: String? = nil

    /// The request a DPoP proof is made for (RFC 9449 §4.2: `htm` and `htu`).
    struct ProofTarget: Equatable {
        var method: String
        var url: URL

        /// Both or neither; a method in capitals as it is sent (methods are case-sensitive: a
        /// proof names the one sent), an http(s) URL with a host, a port that is one, no
        /// user or password (a proof's `htu` never carries them) and no fragment.
        init?(method: String?, url: String?) throws {
            guard method != nil || url != nil else { return nil }
            guard let method, let url else {
                throw ValidationError("--method and --url go together: give the method and the URL of the request the token is for")
            }
            guard !method.isEmpty, method.utf8.count <= 16, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                throw ValidationError(
                    "--method '\(Sanitize.text(method, limit: 20))' is not an HTTP method in capitals, as the request sends it: give GET, POST, PUT, …"
                )
            }
            guard url.utf8.count <= 4096, !url.contains(where: { $0.isWhitespace || $0.isNewline }), let parsed = URL(string: url),
                let scheme = parsed.scheme?.lowercased(), scheme == "https" || scheme == "http", parsed.host?.isEmpty == false,
                parsed.fragment == nil, parsed.user == nil, parsed.password == nil, (parsed.port ?? 0) <= 65535
            else {
                throw ValidationError(
                    "--url must be the http(s) URL of the request, with a host, no user or password and no fragment: https://api.example.com/v1/me"
                )
            }
            self.method = method
            self.url = parsed
        }
    }
    /// The user chosen by `--user`, `AUTHCTL_USER` or a rule (`IdentityChoice`); nil: the current user.
    var uid: String?

    /// The common forms of `authctl token …` (arguments after `token`), parsed by hand;
    /// nil for anything else — help, an unknown option, a bad value, `-vq`, `--`, a value
    /// that starts with a dash — which then goes through ArgumentParser for its usual messages.
    /// It applies `Token.validate`'s rules itself, so that what it accepts ArgumentParser
    /// accepts with the same values (TokenParserAgreementTests holds it to that on generated
    /// argument lists).
    static func parseFast(_ arguments: [String]) -> TokenInvocation? {
        // The grammar is the cached-token core's (`TokenForm`, the token front's too); the values, ArgumentParser's rules.
        let form = TokenForm.parse(arguments) { option, value in
            switch option {
            case .keystore, .config: return HandParser.isPath(value)
            case .user: return IdentityRule.isUserSelector(value)
            case .minimumTTL: return Int(value).map(Token.minimumTTLRange.contains) ?? false
            case .format: return Token.Format(rawValue: value) != nil
            case .scope: return ScopeSyntax.isValid(value)
            // A resource's token is never the hot path's (`printedFromCache`): ArgumentParser reads it.
            case .resource: return false
            }
        }
        guard let form else { return nil }
        var request = TokenInvocation(settings: Wiring.Settings())
        request.settings.json = form.json
        request.settings.verbose = form.verbose
        request.settings.quiet = form.quiet
        request.settings.keystore = form.keystore
        request.settings.config = form.config
        request.settings.user = form.user
        request.idToken = form.idToken
        request.accessToken = form.accessToken
        request.forceRefresh = form.forceRefresh
        if let seconds = form.minimumTTL.flatMap({ Int($0) }) { request.minimumTTL = seconds }
        if let format = form.format.flatMap(Token.Format.init(rawValue:)) { request.format = format }
        request.scopes = form.scopes
        request.provider = form.provider
        return request
    }

    /// Whether the ID token is printed: asked with --id-token, or the default of
    /// `--format kubectl-exec` — a Kubernetes API server's OIDC authenticator validates ID tokens
    /// (its --oidc-client-id is their audience), and kubelogin gives kubectl the ID token too —
    /// unless --access-token asks otherwise or --scope asks an access token for other scopes.
    var printsIDToken: Bool { idToken || (format == .kubectlExec && !accessToken && scopes.isEmpty) }

    /// The token asked for, as `TokenRefresh` gives it.
    var input: TokenRefresh.Input {
        get throws { try input(uid: uid, provider: provider) }
    }

    /// The token asked for, for `uid` and `provider` (the hot path's chosen identity, without
    /// a copy of the request: bench/README.md).
    func input(uid: String?, provider: String?) throws -> TokenRefresh.Input {
        TokenRefresh.Input(
            providerID: try provider.map(ProviderID.init(parsing:)), idToken: printsIDToken,
            minimumTTL: TimeInterval(minimumTTL), forceRefresh: forceRefresh, scopes: scopes, uid: uid)
    }

    /// The token asked for, as the identity `chosen` (`Wiring.chosenIdentity`): its user, and
    /// its provider unless one was given.
    func input(_ chosen: ChosenIdentity) throws -> TokenRefresh.Input {
        var input = try input(uid: chosen.uid ?? uid, provider: provider ?? chosen.provider)
        input.chosenBy = chosen.chosenBy
        return input
    }

    /// The hot path without Swift concurrency: what `run` would print when the keystore holds
    /// a token that answers the request, or nil — a refresh is due, or anything fails — and
    /// then `run` does it all again and says what went wrong. The entry point calls it before
    /// main.swift creates a `Task`, a Dispatch source or a thread (bench/README.md).
    func printedFromCache(keystore: any Keystore, now: Date) -> Data? {
        printedFromCache(keystore: keystore, now: now, uid: uid, provider: provider)
    }

    /// The same for the identity chosen by `IdentityChoice` (`uid`, and `provider` when none was given).
    /// A DPoP-bound token takes the general path: its proof is drawn from the random source.
    func printedFromCache(keystore: any Keystore, now: Date, uid: String?, provider: String?) -> Data? {
        guard resource == nil, let input = try? input(uid: uid, provider: provider),
            let output = try? TokenRefresh.cachedOutput(input, keystore: keystore, now: now), output.proofKey == nil,
            !CachedTokenAnswer.isDPoP(output.tokenType)
        else { return nil }
        return try? printed(output, proof: nil)
    }

    func run(_ wiring: Wiring) async throws {
        let output: TokenRefresh.Output
        let environment = wiring.useCases()
        // The identity `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current user.
        let chosen = try wiring.chosenIdentity()
        if let resource {
            let url = try ResourceIdentifier(parsing: resource).url
            let found = try await environment.resourceTokens.token(
                for: url, minimumTTL: TimeInterval(minimumTTL), forceRefresh: forceRefresh, uid: chosen.uid, chosenBy: chosen.chosenBy)
            let output = found.asTokenOutput
            return wiring.output.write(try printed(output, proof: try proof(of: output, environment)))
        }
        let input = try input(chosen)
        do {
            output = try await environment.tokenRefresh.run(input)
        } catch let error as AuthError where error.code == .noCurrentUser && input.providerID == nil && input.uid == nil {
            // Nobody signed in and no provider named: the only configured one, if there is one.
            guard let only = wiring.onlyConfiguredProvider() else { throw error }
            throw AuthError.noCurrentUser(signInWith: only)
        }
        // An early refresh that could not reach the provider: the token in hand, and a warning.
        if let stale = output.stillValidEvent(now: environment.clock.now()) { environment.events.report(stale) }
        wiring.output.write(try printed(output, proof: try proof(of: output, environment)))
    }

    /// The DPoP proof of `--method` and `--url` for a DPoP-bound token; nil for a bearer one,
    /// or without them. A DPoP token whose key is missing is refused here, whatever the format
    /// (raw excepted: the token as it is, useless alone).
    func proof(of output: TokenRefresh.Output, _ environment: UseCaseGraph) throws -> String? {
        let bound = !output.isIDToken && CachedTokenAnswer.isDPoP(output.tokenType)
        if bound, output.proofKey == nil, format != .raw || settings.json {
            throw AuthError.dpopKeyMissing(
                "the \(output.providerID) access token", signIn: "Sign in again: \(command: .login, "\(output.providerID)")")
        }
        guard let proofTarget else { return nil }
        return try output.proof(method: proofTarget.method, url: proofTarget.url, now: environment.clock.now(), random: environment.random)
    }

    /// `value` as one word of a POSIX shell: bare when it holds only a bearer token's
    /// characters (RFC 6750's b64token), as env files (`docker --env-file`) take it; else
    /// single-quoted, so that `eval` never runs what a lying provider put in a token.
    static func shellWord(_ value: String) -> String {
        let bare = value.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-._~+/=".unicodeScalars.contains($0)
        }
        if bare && !value.isEmpty { return value }
        return "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `--format header` (lines for curl's `-H @-`) or `headers-json` (one JSON object).
    static func headers(authorization: String, dpop: String?, format: Token.Format) -> Data {
        guard format == .headersJSON else {
            return TokenOutputBytes.data("Authorization: " + authorization + "\n" + (dpop.map { "DPoP: " + $0 + "\n" } ?? ""))
        }
        if let bytes = TokenOutputBytes.headersJSON(authorization: authorization, dpop: dpop) { return Data(bytes) }
        var headers: [String: JSONValue] = ["Authorization": .string(authorization)]
        if let dpop { headers["DPoP"] = .string(dpop) }
        // One line, as the plain case: compact, keys sorted.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(JSONValue.object(headers))) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    /// What `authctl token` prints for `output`, in the format asked; `proof` is the DPoP
    /// proof of `--method` and `--url` for a DPoP-bound token. Such a token needs one for
    /// `header`, and kubectl (which sends bearer tokens only) cannot use it.
    func printed(_ output: TokenRefresh.Output, proof: String?) throws -> Data {
        let bound = !output.isIDToken && CachedTokenAnswer.isDPoP(output.tokenType)
        switch settings.json ? .json : format {
        case .raw:
            return TokenOutputBytes.data(output.token + "\n")
        case .header, .headersJSON:
            let format = format
            guard bound else { return Self.headers(authorization: "Bearer " + output.token, dpop: nil, format: format) }
            guard let proof else {
                throw AuthError.invalidArgument(
                    "the \(output.providerID) access token is bound to a DPoP key: each request needs its own proof. Give the request's \(input: .method) and \(input: .url): \(command: .token, .input(.format, format.rawValue), .input(.method, "GET"), .input(.url, "https://api.example.com/…"))"
                )
            }
            return Self.headers(authorization: "DPoP " + output.token, dpop: proof, format: format)
        case .env:
            // `export`: eval'ed in a shell, the variables reach the programs it starts (docs/ci.md).
            var text = "export AUTHCTL_TOKEN=" + Self.shellWord(output.token) + "\n"
            if bound {
                text += "export AUTHCTL_TOKEN_TYPE=DPoP\n" + (proof.map { "export AUTHCTL_DPOP_PROOF=" + Self.shellWord($0) + "\n" } ?? "")
            }
            return TokenOutputBytes.data(text)
        case .json:
            var document: [String: JSONValue] = [
                "providerId": .string(output.providerID),
                "tokenType": .string(output.tokenType),
                output.isIDToken ? "idToken" : "accessToken": .string(output.token),
                "expiresAt": Output.timestamp(output.expiresAt),
                "scopes": .array(output.scopes.map(JSONValue.string)),
            ]
            if bound, let proof {
                document["dpopProof"] = .string(proof)
                document["authorization"] = .string("DPoP " + output.token)
            }
            return Output.jsonDocument(.object(document))
        case .kubectlExec:
            if bound { _ = try output.requireBearer(for: "kubectl") }
            if let bytes = TokenOutputBytes.kubectlExecCredential(token: output.token, expiresAt: output.expiresAt) { return bytes }
            var status: [String: JSONValue] = ["token": .string(output.token)]
            if let expiresAt = output.expiresAt { status["expirationTimestamp"] = .string(Output.rfc3339(expiresAt)) }
            return Output.jsonDocument(
                .object([
                    "apiVersion": .string("client.authentication.k8s.io/v1"),
                    "kind": .string("ExecCredential"),
                    "status": .object(status),
                ]))
        }
    }
}
