import ArgumentParser
import AuthCore

/// The options of an interactive sign-in (docs/authctl.1, shared by `login`, `link` and `reauth`).
struct FlowArguments: ParsableArguments {
    @Option(name: .customLong("scope"), help: ArgumentHelp("A scope to ask beside the defaults (repeatable).", valueName: "scope"))
    var scopes: [String] = []

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp("A custom authorization parameter, e.g. prompt=login (repeatable).", valueName: "key=value"))
    var parameters: [String] = []

    @Option(
        name: .customLong("browser-command"),
        help: ArgumentHelp(
            "Open the URL with this command (split on white space, URL appended; env AUTHCTL_BROWSER).", valueName: "command"))
    var browserCommand: String?

    @Flag(name: .customLong("no-browser"), help: "Do not open a browser: print the URL (the redirect still comes back to this machine).")
    var noBrowser = false

    @Flag(
        name: .customLong("device-code"),
        help: "Sign in on another device: show a code and a URL, and wait for the approval (RFC 8628; where the provider offers it).")
    var deviceCode = false

    @Flag(help: "Print the URL, then read the redirect URL the browser ended on (or the posted form body) from stdin.")
    var manual = false

    @Flag(
        help:
            "Sign in with a browser on another machine: print an 'authctl bootstrap' command to run there, then read the line it prints from stdin."
    )
    var remote = false

    @Flag(
        help:
            "Sign in by CIBA (poll mode): the provider asks the person named by --login-hint to approve on their own device; nothing to open or paste."
    )
    var ciba = false

    @Option(
        name: .customLong("login-hint"),
        help: ArgumentHelp(
            "With --ciba: who signs in, in the provider's format (an e-mail address, a user name; Glewlwyd: {\"username\":\"NAME\"}).",
            valueName: "hint"))
    var loginHint: String?

    @Option(
        name: .customLong("binding-message"),
        help: ArgumentHelp(
            "With --ciba: the short text the person sees on their device (default: two words and a number).", valueName: "text"))
    var bindingMessage: String?

    // `.unconditional`: `--timeout -1` is a value out of range (named in the message), not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds to wait for the sign-in to finish (browser redirect or device approval).", valueName: "seconds"))
    var timeout: Int = 300

    @Option(
        name: .customLong("listen-address"),
        help: ArgumentHelp("Where the redirect listener binds (a loopback HOST:PORT).", valueName: "host:port"))
    var listenAddress: String?

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp(
            "The redirect URI to send (default http://127.0.0.1:PORT/callback; microsoft.com: http://localhost:PORT).", valueName: "uri"))
    var redirectURI: String?

    @Flag(
        name: .customLong("allow-any-local-user"),
        help:
            "Let other local users' processes reach the redirect listener (env AUTHCTL_ALLOW_ANY_LOCAL_USER=1): only where the browser's connection is relayed by another user's process (WSL, some containers)."
    )
    var allowAnyLocalUser = false

    @Option(
        help: ArgumentHelp(
            "microsoft.com: the tenant of this sign-in (common, organizations, consumers, a tenant id or domain).", valueName: "tenant"))
    var tenant: String?

    @Option(
        name: .customLong("authorization-details"),
        help: ArgumentHelp(
            "Rich authorization (RFC 9396): a JSON array of objects with a \"type\", or @FILE holding one; kept with the grant.",
            valueName: "json|@file"))
    var authorizationDetails: String?

    /// The longest wait a sign-in may be given (docs/configuration.md): a day.
    static let timeoutRange = 1...86_400

    func validate() throws {
        guard Self.timeoutRange.contains(timeout) else {
            throw ValidationError("--timeout \(timeout) is out of range: give 1…86400 seconds (a day at most)")
        }
        for scope in scopes where !ScopeSyntax.isValid(scope) {
            throw ValidationError(
                "--scope '\(Sanitize.text(scope, limit: 60))' is not one scope (printable ASCII, no spaces); repeat --scope for several")
        }
        do {
            if let redirectURI { try ProviderConfig.checkRedirectURI(redirectURI) }
            if let listenAddress { _ = try ListenAddress(parsing: listenAddress) }
        } catch let error as AuthError {
            throw ValidationError(MessageSpelling.words(error.message))
        }
        let modes = [("--device-code", deviceCode), ("--manual", manual), ("--remote", remote), ("--ciba", ciba)].filter(\.1).map(\.0)
        if modes.count > 1 { throw ValidationError("\(modes.joined(separator: " and ")) exclude each other: choose one") }
        if let mode = modes.first, browserCommand != nil {
            throw ValidationError("--browser-command has no use with \(mode): nothing is opened")
        }
        if ciba, loginHint == nil {
            throw ValidationError("--ciba needs --login-hint: who is to approve the sign-in, in the provider's format")
        }
        if !ciba, loginHint != nil || bindingMessage != nil {
            throw ValidationError("\(loginHint != nil ? "--login-hint" : "--binding-message") goes with --ciba")
        }
        if ciba, listenAddress != nil || redirectURI != nil {
            throw ValidationError(
                "\(listenAddress != nil ? "--listen-address" : "--redirect-uri") has no use with --ciba: nothing is redirected")
        }
        do {
            if let loginHint { _ = try FlowOptions.Mode.checkedBackchannel(loginHint: loginHint, bindingMessage: bindingMessage) }
        } catch let error as AuthError {
            throw ValidationError(MessageSpelling.words(error.message))
        }
    }

    /// True when no browser is to be started: `--no-browser`, `--manual`, `--device-code`.
    var opensNoBrowser: Bool { noBrowser || manual || deviceCode || remote || ciba }

    var mode: FlowOptions.Mode {
        if deviceCode { return .deviceCode }
        if manual { return .manual }
        if remote { return .remote }
        if ciba, let loginHint { return .backchannel(loginHint: loginHint, bindingMessage: bindingMessage) }
        return .browser
    }

    /// The options of the sign-in; `environment` may allow any local user
    /// (`AUTHCTL_ALLOW_ANY_LOCAL_USER=1`).
    func flowOptions(environment: [String: String]) throws -> FlowOptions {
        var options = FlowOptions(
            scopes: scopes, parameters: try parameters.map(Self.parseParameter), timeout: TimeInterval(timeout),
            listenAddress: try listenAddress.map(ListenAddress.init(parsing:)), redirectURI: redirectURI, tenant: tenant,
            mode: mode,
            allowAnyLocalUser: allowAnyLocalUser || environment["AUTHCTL_ALLOW_ANY_LOCAL_USER"] == "1")
        options.authorizationDetails = try authorizationDetails.map(Self.parseAuthorizationDetails)
        return options
    }

    /// `--authorization-details JSON`, or `@FILE` (a regular file of at most 64 KiB).
    static func parseAuthorizationDetails(_ argument: String) throws -> AuthorizationDetails {
        guard argument.hasPrefix("@") else {
            return try AuthorizationDetails.parse(argument, source: "--authorization-details")
        }
        let path = String(argument.dropFirst())
        let text = try Wiring.readArgumentFile(path, option: .authorizationDetails, limit: AuthorizationDetails.maximumBytes)
        return try AuthorizationDetails.parse(text, source: "the file \(path) of --authorization-details")
    }

    static func parseParameter(_ text: String) throws -> (String, String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw AuthError.invalidArgument(
                "--param '\(Sanitize.text(text, limit: 60))' is not KEY=VALUE. Write for example --param prompt=login")
        }
        return (String(parts[0]), String(parts[1]))
    }
}
