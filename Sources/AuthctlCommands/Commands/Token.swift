import ArgumentParser
import AuthCore

struct Token: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token (or ID token) of the current user.",
        discussion: """
            Refreshes the token first when it expires within --min-ttl seconds. A valid cached token is printed without any \
            network request. When that early refresh cannot reach the provider, the token is still printed while it is \
            valid, with a warning on stderr (exit 0); once it has expired, or with --force-refresh, the command fails \
            (exit 3).

            Examples:
              authctl token                                   # the access token, for a script
              authctl token --id-token                        # the ID token
              authctl token --format header | curl -H @- https://api.example.com/   # never on curl's command line
              authctl token microsoft --scope https://graph.microsoft.com/.default
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case raw, json, header, env
        case kubectlExec = "kubectl-exec"
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
    @Option(help: "How to print the token: raw, json, header, env, kubectl-exec (an ExecCredential with the ID token).")
    var format: Format = .raw
    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Print an access token for these scopes instead, obtained with the refresh token and cached (repeatable; Microsoft: another resource, e.g. https://graph.microsoft.com/.default).",
            valueName: "scope"))
    var scopes: [String] = []

    /// `--min-ttl`'s range (docs/configuration.md): up to a day ahead.
    static let minimumTTLRange = 0...86_400
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard !(idToken && accessToken) else {
            throw ValidationError("--id-token and --access-token exclude each other: give the one token to print")
        }
        guard Self.minimumTTLRange.contains(minimumTTL) else {
            throw ValidationError("--min-ttl \(minimumTTL) is out of range: give 0…86400 seconds (a day at most)")
        }
        guard scopes.allSatisfy(ScopeSyntax.isValid) else {
            throw ValidationError("--scope takes one scope each time (printable ASCII, no spaces); repeat it for several")
        }
    }

    /// The options as plain values.
    var request: TokenInvocation {
        TokenInvocation(
            settings: settings, provider: provider, idToken: idToken, accessToken: accessToken,
            minimumTTL: minimumTTL, forceRefresh: forceRefresh, format: format, scopes: scopes)
    }

    func run(_ wiring: Wiring) async throws { try await request.run(wiring) }
}

/// What `authctl token` was asked, as plain values: the command above fills it through
/// ArgumentParser; the hot path fills it with `parseFast` and skips ArgumentParser entirely.
struct TokenInvocation: Equatable, WiredCommand {
    var settings: Wiring.Settings
    var provider: String?
    var idToken = false
    var accessToken = false
    var minimumTTL = 60
    var forceRefresh = false
    var format: Token.Format = .raw
    var scopes: [String] = []
    /// The user chosen by `--user`, `AUTHCTL_USER` or a rule (`IdentityChoice`); nil: the current user.
    var uid: String?

    /// The common forms of `authctl token …` (arguments after `token`), parsed by hand;
    /// nil for anything else — help, an unknown option, a bad value, `-vq`, `--`, a value
    /// that starts with a dash — which then goes through ArgumentParser for its usual messages.
    /// It applies `Token.validate`'s rules itself, so that what it accepts ArgumentParser
    /// accepts with the same values (TokenParserAgreementTests holds it to that on generated
    /// argument lists).
    static func parseFast(_ arguments: [String]) -> TokenInvocation? {
        var request = TokenInvocation(settings: Wiring.Settings())
        var index = 0
        /// The option's value: inline (`--name=value`) or the next argument, which must not
        /// look like an option (ArgumentParser's rule).
        func value(_ inline: String?) -> String? {
            if let inline { return inline }
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            return arguments[index]
        }
        func isPath(_ text: String) -> Bool {
            !text.trimming(.whitespacesAndNewlines).isEmpty && !text.contains(where: \.isNewline)
        }
        while index < arguments.count {
            let argument = arguments[index]
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let isLong = argument.hasPrefix("--")
            let name = isLong ? parts[0] : argument
            let inline = isLong && parts.count == 2 ? parts[1] : nil
            if inline != nil, ["--json", "--verbose", "--quiet", "--id-token", "--access-token", "--force-refresh"].contains(name) {
                return nil
            }
            switch name {
            case "--json": request.settings.json = true
            case "-v", "--verbose": request.settings.verbose = true
            case "-q", "--quiet": request.settings.quiet = true
            case "--id-token": request.idToken = true
            case "--access-token": request.accessToken = true
            case "--force-refresh": request.forceRefresh = true
            case "--keystore":
                guard let path = value(inline), isPath(path) else { return nil }
                request.settings.keystore = path
            case "--config":
                guard let path = value(inline), isPath(path) else { return nil }
                request.settings.config = path
            case "--user":
                guard let user = value(inline), IdentityRule.isUserSelector(user) else { return nil }
                request.settings.user = user
            case "--min-ttl":
                guard let seconds = value(inline).flatMap({ Int($0) }), Token.minimumTTLRange.contains(seconds) else { return nil }
                request.minimumTTL = seconds
            case "--format":
                guard let format = value(inline).flatMap(Token.Format.init(rawValue:)) else { return nil }
                request.format = format
            case "--scope":
                guard let scope = value(inline), ScopeSyntax.isValid(scope) else { return nil }
                request.scopes.append(scope)
            default:
                guard !argument.hasPrefix("-"), !argument.isEmpty, request.provider == nil else { return nil }
                request.provider = argument
            }
            index += 1
        }
        // Token.validate's rule: ArgumentParser refuses both, so hand them over.
        if request.idToken && request.accessToken { return nil }
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

    /// The request for the identity `choice` names (docs/identities.md): its user, and its
    /// provider unless one was given.
    func choosing(_ choice: IdentityChoice?, keystore: FileKeystore, verifying: Bool = true) throws -> TokenInvocation {
        guard let choice else { return self }
        var request = self
        request.uid = try choice.uid(in: keystore, verifying: verifying)
        if request.provider == nil { request.provider = choice.provider }
        return request
    }

    /// The hot path without Swift concurrency: what `run` would print when the keystore holds
    /// a token that answers the request, or nil — a refresh is due, or anything fails — and
    /// then `run` does it all again and says what went wrong. The entry point calls it before
    /// main.swift creates a `Task`, a Dispatch source or a thread (bench/README.md).
    func printedFromCache(keystore: any Keystore, now: Date) -> Data? {
        printedFromCache(keystore: keystore, now: now, uid: uid, provider: provider)
    }

    /// The same for the identity chosen by `IdentityChoice` (`uid`, and `provider` when none was given).
    func printedFromCache(keystore: any Keystore, now: Date, uid: String?, provider: String?) -> Data? {
        guard let input = try? input(uid: uid, provider: provider),
            let output = try? TokenRefresh.cachedOutput(input, keystore: keystore, now: now)
        else { return nil }
        return printed(output)
    }

    func run(_ wiring: Wiring) async throws {
        let output: TokenRefresh.Output
        let environment = wiring.useCases()
        let request = try choosing(wiring.identityChoice(), keystore: wiring.keystore())
        do {
            output = try await environment.tokenRefresh.run(request.input)
        } catch let error as AuthError where error.code == .noCurrentUser && request.provider == nil && request.uid == nil {
            // Nobody signed in and no provider named: the only configured one, if there is one.
            guard let only = wiring.onlyConfiguredProvider() else { throw error }
            throw AuthError.noCurrentUser(signInWith: only)
        }
        // An early refresh that could not reach the provider: the token in hand, and a warning.
        if let stale = output.stillValidEvent(now: environment.clock.now()) { environment.events.report(stale) }
        wiring.output.write(printed(output))
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

    /// What `authctl token` prints for `output`, in the format asked.
    func printed(_ output: TokenRefresh.Output) -> Data {
        switch settings.json ? .json : format {
        case .raw:
            return TokenOutputBytes.data(output.token + "\n")
        case .header:
            return TokenOutputBytes.data("Authorization: Bearer " + output.token + "\n")
        case .env:
            return TokenOutputBytes.data("AUTHCTL_TOKEN=" + Self.shellWord(output.token) + "\n")
        case .json:
            return Output.jsonDocument(
                .object([
                    "providerId": .string(output.providerID),
                    "tokenType": .string(output.tokenType),
                    output.isIDToken ? "idToken" : "accessToken": .string(output.token),
                    "expiresAt": Output.timestamp(output.expiresAt),
                    "scopes": .array(output.scopes.map(JSONValue.string)),
                ]))
        case .kubectlExec:
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
