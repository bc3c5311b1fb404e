import ArgumentParser
import AuthCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `authctl request` (docs/resources.md): one HTTP request to a protected resource with the
/// current user's grant for its URL, in the shape of `gh api` and `az rest`.
struct RequestCommand: AuthctlCommand {
    var signsIn: Bool { true }
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send an HTTP request to a protected resource with the token of its grant.",
        discussion: """
            The grant is the current user's for the URL (the longest matching resource; sign in with authctl login URL). \
            The answer's body goes to stdout as it arrives (an event stream too; Ctrl-C ends it, exit 130); with --json it \
            is read whole (16 MiB at most). An HTTP error status exits 22 (resource-error). A 401 invalid_token \
            refreshes the token once and retries; when the resource's metadata no longer names the grant's \
            authorization server, the resource moved: authctl signs in where it names now only with the consent of \
            the person at the terminal, and otherwise exits 18 (consent-required). A 403 insufficient_scope or a 401 insufficient_user_authentication \
            signs in again for what the resource asks (at most three times for one request, never twice for the same ask) \
            when a person is at the terminal (or --browser-command is given), and otherwise exits 21 (step-up-required) \
            naming the command to run. The token never appears in the output.

            The URL's dot segments (/./, /../) are removed before its grant is chosen, and the URL is sent as checked; \
            a path with %2e, %2f, %5c or a backslash is refused (exit 2). On a terminal, the body's control characters \
            and escape sequences are shown escaped (\\u{1B}); to a pipe or a file it is written as it came.

            Examples:
              authctl request https://api.example.com/mcp/items
              authctl request -X POST https://api.example.com/mcp \\
                  -H 'Content-Type: application/json' --data @body.json
              echo '{"a": 1}' | authctl request -X PUT https://api.example.com/items/1 \\
                  --data -
            """)

    @Argument(help: "The URL to request (https; a resource authctl signed in to).") var url: String
    @Option(name: [.customShort("X"), .customLong("method")], help: "The HTTP method (default GET, POST with --data).")
    var method: String?
    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A request header 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []
    @Option(help: ArgumentHelp("The request body: @FILE, - (stdin), or the text itself.", valueName: "data")) var data: String?
    @Flag(help: "Print the status line and the response headers before the body.") var include = false
    @Option(
        name: .customLong("browser-command"),
        help: ArgumentHelp("For a step-up: open the URL with this command (env AUTHCTL_BROWSER).", valueName: "command"))
    var browserCommand: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a step-up's sign-in.", valueName: "seconds"))
    var timeout: Int = 300
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard FlowArguments.timeoutRange.contains(timeout) else {
            throw ValidationError("--timeout \(timeout) is out of range: give 1…86400 seconds (a day at most)")
        }
        for header in headers where RequestInvocation.parseHeader(header) == nil {
            throw ValidationError("--header '\(Sanitize.text(header, limit: 60))' is not 'Name: value'")
        }
    }

    /// The command as plain values, which the hand parser makes too (`RequestInvocation.parseFast`).
    var invocation: RequestInvocation {
        RequestInvocation(
            url: url, method: method, headers: headers, data: data, include: include, browserCommand: browserCommand, timeout: timeout,
            settings: settings)
    }

    func run(_ wiring: Wiring) async throws { try await invocation.run(wiring) }
}

/// What `request` does, from its plain values (parsed by ArgumentParser or by hand).
extension RequestInvocation {
    /// The most bytes of a request body.
    static let bodyLimit = 16 << 20

    static func parseHeader(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimming(.whitespaces)
        let value = text[text.index(after: colon)...].trimming(.whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return (name, value)
    }

    func body(_ wiring: Wiring) throws -> Data? {
        guard let data else { return nil }
        if data == "-" { return try wiring.io.stdin.readToEnd(limit: Self.bodyLimit) }
        guard data.hasPrefix("@") else { return Data(data.utf8) }
        let path = String(data.dropFirst())
        // 16 MiB at most, whatever the file: a larger regular file is refused unread, a FIFO
        // (`--data @<(jq …)`) or a device once it gives more.
        return try wiring.readBounded(path, limit: Self.bodyLimit, tooLarge: "is larger than 16 MiB, the most authctl sends") { reason in
            AuthError.invalidArgument("the file \(Sanitize.text(path, limit: 200)) given to --data \(reason). Check the path")
        }
    }

    func run(_ wiring: Wiring) async throws {
        // Dot segments removed, encoded dots, slashes and backslashes refused (before the URL
        // parser turns a backslash into %5C); then https (plain http on loopback only), a
        // host, no user name: refused here with the reason.
        let requestURL = try RequestURL.normalized(url)
        _ = try ResourceIdentifier(requestURL)
        var input = ResourceRequest.Input(
            method: method ?? (data == nil ? "GET" : "POST"), url: requestURL, headers: headers.compactMap(Self.parseHeader),
            body: try body(wiring))
        // The grant of the user `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current user's.
        let chosen = try wiring.chosenIdentity()
        input.uid = chosen.uid
        input.chosenBy = chosen.chosenBy
        let useCases = wiring.useCases(browser: wiring.browser(command: browserCommand, disabled: false))
        // A reader that goes away (`| head`) fails the write with EPIPE, which ends the
        // transfer (exit 141), instead of a SIGPIPE that would end authctl wherever it was.
        if !settings.json { signal(SIGPIPE, SIG_IGN) }
        // A person's terminal gets the body visible-safe (an answer may hold OSC 52, which
        // writes the clipboard, or CSI 2J); a pipe or a file gets it byte for byte.
        let sink = StdoutSink(
            stdout: wiring.io.stdout, include: include, terminal: wiring.io.stdout.isTerminal ? StdoutSink.TerminalFilter() : nil)
        func send() async throws -> ResourceRequest.Outcome {
            do {
                return settings.json
                    ? try await useCases.resourceRequest.run(input) : try await useCases.resourceRequest.run(input, streamingTo: sink)
            } catch is CancellationError {
                // Ctrl-C while waiting for the resource (an event stream ends only so): not a sign-in's.
                throw Interrupted(reason: CachedRequestWords.interrupted)
            } catch is StdoutSink.Closed {
                // As a program ended by SIGPIPE reports it (`gh api … | head`), without a message.
                throw ExitCode(Self.stdoutClosedStatus)
            }
        }
        var outcome: ResourceRequest.Outcome
        do {
            outcome = try await send()
        } catch let error as AuthError {
            // The grant could not be renewed (the refresh token refused, the client forgotten by
            // its server, no refresh token): a person signs in again, discovering the resource's
            // authorization server afresh — the one it names now, where authctl registers if it
            // must (docs/resources.md, "When the authorization server changes").
            guard let (resource, scopes) = Self.renewalFailed(error), canSignIn(wiring) else { throw error }
            wiring.terminal.notice("The token for \(resource) could not be renewed: signing in again.")
            // For the scopes the grant held (a step-up's too), not the resource's defaults.
            var options = FlowOptions(scopes: scopes, timeout: TimeInterval(timeout))
            options.allowAnyLocalUser = wiring.environment["AUTHCTL_ALLOW_ANY_LOCAL_USER"] == "1"
            // A resource that names another server now moves there only with the person's consent.
            var previousIssuer: String? = nil
            if case .string(let issuer)? = error.details["issuer"] { previousIssuer = issuer }
            Login.noticeRegistration(
                try await useCases.resourceSignIn.run(.init(resource: resource, options: options, movingFrom: previousIssuer)),
                wiring: wiring)
            outcome = try await send()
        }
        // A person signs in again for what the resource asks, or where it moved; a script gets
        // the command. At most three step-ups for one request (MCP's step-up rule), never twice
        // for the same ask, and one move.
        var asked: [ResourceRequest.StepUp] = []
        var moved: ServerMove?
        answering: while true {
            switch outcome {
            case .stepUp(let stepUp):
                guard asked.count < Self.stepUpLimit, !asked.contains(where: { $0.asksTheSame(as: stepUp) }) else {
                    throw Self.stepUpRequired(stepUp)
                }
                asked.append(stepUp)
                try await self.stepUp(stepUp, useCases: useCases, wiring: wiring)
            case .serverMoved(let move, let scopes):
                if let moved { throw Self.movedAgain(move, after: moved) }
                moved = move
                try await self.move(move, scopes: scopes, useCases: useCases, wiring: wiring)
            case .answered(let response):
                try print(response, wiring: wiring)
                break answering
            case .streamed(let head):
                try sink.finish()
                try finish(status: head.status, wiring: wiring)
                break answering
            }
            outcome = try await send()
        }
    }

    /// How many times one request may send the person to sign in again.
    static let stepUpLimit = 3

    /// The resource whose grant could not be renewed, and the scopes the grant held, when
    /// `error` says so (a refresh refused with `invalid_grant` or `invalid_client`, or no
    /// refresh token): a new sign-in may help.
    static func renewalFailed(_ error: AuthError) -> (resource: String, scopes: [String])? {
        guard error.code == .invalidCredential, error.oauthError.map({ [.invalidGrant, .invalidClient].contains($0) }) ?? true,
            case .string(let resource)? = error.details["resource"]
        else { return nil }
        guard case .array(let values)? = error.details["scopes"] else { return (resource, []) }
        return (resource, values.compactMap { if case .string(let scope) = $0 { scope } else { nil } })
    }

    /// Whether a sign-in can run now: a person at the terminal, or a browser command (the
    /// option or AUTHCTL_BROWSER, decided in one place), which steps up without a terminal.
    func canSignIn(_ wiring: Wiring) -> Bool {
        wiring.terminal.isInteractive || wiring.browserCommand(browserCommand) != nil
    }

    /// One step-up: the sign-in the resource asks for, with the grant's provider (a borrowed
    /// one asks the person again, naming the new scopes), or `step-up-required`.
    func stepUp(_ stepUp: ResourceRequest.StepUp, useCases: UseCaseGraph, wiring: Wiring) async throws {
        let canAsk = canSignIn(wiring)
        // A resource that named no scope, and whose metadata names none the grant lacks:
        // signing in again for the same scopes cannot help.
        let helps = stepUp.scopeNamed || !(stepUp.lacking ?? []).isEmpty
        guard canAsk, helps else { throw Self.stepUpRequired(stepUp) }
        wiring.terminal.notice("\(stepUp.resource) asks for \(Self.asked(stepUp)): signing in again.")
        var options = FlowOptions(scopes: stepUp.scopes, timeout: TimeInterval(timeout))
        if let acr = stepUp.acrValues { options.parameters.append(("acr_values", acr)) }
        if let maxAge = stepUp.maxAge { options.parameters.append(("max_age", String(maxAge))) }
        options.allowAnyLocalUser = wiring.environment["AUTHCTL_ALLOW_ANY_LOCAL_USER"] == "1"
        let output = try await useCases.resourceSignIn.run(
            .init(
                resource: stepUp.resource, issuer: stepUp.issuer, options: options,
                provider: try stepUp.providerID.map(ProviderID.init(parsing:))))
        Login.noticeRegistration(output, wiring: wiring)
    }

    /// The status of `authctl request` whose stdout was closed before the answer ended:
    /// 128 + SIGPIPE, what a shell reports for a program that a closed pipe ended.
    static let stdoutClosedStatus: Int32 = 141

    /// The streamed answer's head (with `--include`) and body on stdout, as they arrive.
    struct StdoutSink: ResponseSink {
        let stdout: any OutputChannel
        let include: Bool
        /// Set when stdout is a terminal: the body goes through it.
        var terminal: TerminalFilter? = nil

        /// stdout could not be written (the reader went away).
        struct Closed: Error {}

        /// The body's `VisibleStream`, kept across the chunks (which arrive one at a time).
        final class TerminalFilter: Sendable {
            let stream = Mutex(VisibleStream())
        }

        func head(_ head: HTTPResponseHead) throws {
            guard include else { return }
            try write(Array(RequestInvocation.headText(status: head.status, headers: head.headers).utf8))
        }

        func body(_ chunk: Data) throws {
            guard let terminal else { return try write(Array(chunk)) }
            try write(terminal.stream.withLock { $0.filter(chunk) })
        }

        /// What the filter held back at the end of the body (an unfinished character, a
        /// carriage return).
        func finish() throws {
            guard let terminal else { return }
            let rest = terminal.stream.withLock { $0.finish() }
            if !rest.isEmpty { try write(rest) }
        }

        private func write(_ bytes: [UInt8]) throws {
            do {
                try stdout.write(bytes)
            } catch {
                throw Closed()
            }
        }
    }

    /// `--include`'s status line and headers, with the empty line that ends them.
    static func headText(status: Int, headers: [String: String]) -> String {
        var head = "HTTP \(status)\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\n" }
        return Sanitize.visible(head, keepingLines: true) + "\n"
    }

    /// An error status exits 22 (the body went to stdout).
    func finish(status: Int, wiring: Wiring) throws {
        guard status >= 400 else { return }
        wiring.output.error("authctl: \(CachedRequestWords.resourceAnswered(status))\n")
        throw ExitCode(AuthError.Code.resourceError.exitStatus)
    }

    static func asked(_ stepUp: ResourceRequest.StepUp) -> String {
        if stepUp.error == "insufficient_scope", !stepUp.scopeNamed, let lacking = stepUp.lacking, !lacking.isEmpty {
            return
                "more scope without naming it (its scopes_supported that the grant lacks: \(lacking.joined(separator: " ")))"
        }
        return stepUp.error == "insufficient_scope"
            ? "the scopes \(stepUp.scopes.joined(separator: " "))"
            : "a stronger sign-in\(stepUp.acrValues.map { " (acr_values \($0))" } ?? "")\(stepUp.maxAge.map { " (max_age \($0))" } ?? "")"
    }

    static func stepUpRequired(_ stepUp: ResourceRequest.StepUp) -> AuthError {
        if stepUp.error == "insufficient_scope", !stepUp.scopeNamed { return unnamedScope(stepUp) }
        var arguments: [Message.Argument] = ["\(stepUp.resource)"]
        for scope in stepUp.scopes { arguments.append(.input(.scope, scope)) }
        if let acr = stepUp.acrValues { arguments.append(.input(.parameter, "acr_values=\(acr)")) }
        if let maxAge = stepUp.maxAge { arguments.append(.input(.parameter, "max_age=\(maxAge)")) }
        return AuthError.stepUpRequired(
            "the resource \(stepUp.resource) asks for \(asked(stepUp)) (\(stepUp.error)), and no person is at the terminal to sign in. Sign in again with: \(command: .login, arguments: arguments)",
            details: [
                "resource": .string(stepUp.resource), "scopes": .array(stepUp.scopes.map(JSONValue.string)), "error": .string(stepUp.error),
            ])
    }

    /// A 403 `insufficient_scope` that named no scope (django-oauth-toolkit 3.4 names none):
    /// what its metadata's `scopes_supported` says the grant lacks, or that nothing is known.
    static func unnamedScope(_ stepUp: ResourceRequest.StepUp) -> AuthError {
        let unnamed = "the resource \(stepUp.resource) answered 403 insufficient_scope but did not name the scope it needs"
        var details: [String: JSONValue] = [
            "resource": .string(stepUp.resource), "scopes": .array(stepUp.scopes.map(JSONValue.string)), "error": .string(stepUp.error),
            "scopeNamed": .bool(false),
        ]
        var arguments: [Message.Argument] = ["\(stepUp.resource)"]
        for scope in stepUp.scopes { arguments.append(.input(.scope, scope)) }
        guard let lacking = stepUp.lacking, !lacking.isEmpty else {
            arguments.append(.input(.scope, "SCOPE"))
            let known =
                stepUp.lacking == nil
                ? "and its metadata (RFC 9728) could not be read to find one"
                : "and its scopes_supported (RFC 9728) lists none that the grant lacks (it has: \(stepUp.scopes.isEmpty ? "no scope" : stepUp.scopes.joined(separator: " ")))"
            return AuthError.stepUpRequired(
                "\(unnamed), \(known): signing in again for the same scopes cannot help. Ask the resource's operator which scope it needs, then: \(command: .login, arguments: arguments)",
                details: details)
        }
        details["lacking"] = .array(lacking.map(JSONValue.string))
        return AuthError.stepUpRequired(
            "\(unnamed); of its scopes_supported (RFC 9728) the grant lacks \(lacking.joined(separator: " ")), and no person is at the terminal to sign in. Sign in again with: \(command: .login, arguments: arguments)",
            details: details)
    }

    func print(_ response: HTTPResponse, wiring: Wiring) throws {
        let failed = response.status >= 400
        if settings.json {
            let text = String(validating: response.body, as: UTF8.self)
            var document: [String: JSONValue] = [
                "status": .number(Double(response.status)),
                "headers": .object(response.headers.mapValues(JSONValue.string)),
            ]
            if let text {
                document["body"] = .string(text)
            } else {
                document["bodyBase64"] = .string(response.body.base64EncodedString())
            }
            if failed {
                document["error"] = .object([
                    "code": .string(AuthError.Code.resourceError.rawValue),
                    "message": .string("the resource answered HTTP \(response.status)"),
                ])
            }
            wiring.output.json(.object(document))
        } else {
            if include { wiring.output.write(Data(Self.headText(status: response.status, headers: response.headers).utf8)) }
            if wiring.io.stdout.isTerminal {
                var stream = VisibleStream()
                wiring.output.write(stream.filter(response.body) + stream.finish())
            } else {
                wiring.output.write(response.body)
            }
        }
        if failed {
            if !settings.json { try finish(status: response.status, wiring: wiring) }
            throw ExitCode(AuthError.Code.resourceError.exitStatus)
        }
    }
}
