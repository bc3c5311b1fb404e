/// Words for a person — an error's message, an advice — in which what belongs to the
/// command line is a value: a command to run (`Message.Verb` with its arguments) or an input
/// to give (`Message.Input`). AuthCore names them; the executable spells them
/// (`authctl login microsoft`, `--tenant`), so that the core holds no command-line text and
/// another front end can spell them its own way.
///
/// Written as a string literal with interpolations:
///
///     let message: Message = "the tenant does not exist. Check \(input: .tenant), or sign in again: \(command: .login, "microsoft")"
public struct Message: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// A stretch of a message.
    public enum Part: Sendable, Equatable {
        case text(String)
        /// A command to run, with its arguments (`authctl link --pending HANDLE`).
        case command(Verb, [Argument])
        /// An input the person gives, named alone (`--tenant`).
        case input(Input)
        /// Moving a damaged file out of the way (to `PATH.bad`): the front end spells it,
        /// a shell command in the executable (`mv 'PATH' 'PATH.bad'`).
        case moveAside(path: String)
    }

    /// What a command does; the executable spells it as its subcommand (`.usersList` →
    /// `authctl users list`).
    public enum Verb: String, Sendable, Equatable, CaseIterable {
        case login, link, reauthenticate, unlink, signOut, status, token, exec, gitCredential
        case usersList, usersExport, usersDelete, usersPhoto
        case providersAdd, providersShow, providersList, providersRemove
        case keystoreStatus, keystoreSeal, keystoreUnseal, keystoreRekey, keystoreNewKey, unlock, lock
        case backendUse, backendShow
        case awsCredentials, gcpToken
        case request
        case rulesAdd, rulesList, rulesRemove, rulesExplain, kubeconfigSetCredentials
        case bootstrap
    }

    /// An input a person gives to a command; the executable spells it as its option
    /// (`.clientSecretEnv` → `--client-secret-env`).
    public enum Input: String, Sendable, Equatable, CaseIterable {
        case allowAnyLocalUser, authorityHost, browserCommand, clientID, clientSecretEnv, clientSecretFile, clientCertificateFile, config,
            consent
        case credential, deviceCode, flow, graphHost, idToken, issuer, keyID, keystore, listenAddress, manual, noBrowser
        case format, parameter, pending, privateKeyFile, rawNonce, redirectURI, scope, teamID, tenant, timeout
        case keyFile, passphraseEnv, passphraseFile, keyring
        case clientCredentials, jwtBearer, certificateFile, federatedToken, federatedTokenFile, federatedTokenEnv, federatedAudience
        case project, apiKey, tenantID, emulator
        case noCheck, preset, domain, realm, authorizationServer
        case dpop, par, profile, authorizationDetails, method, url
        case exchange, audience, resource, requestedTokenType, subjectTokenType, actorTokenFile, actorTokenEnv
        case roleARN, sessionName, duration, stsEndpoint, awsRegion
        case clientMetadataURL, provider, dryRun, via
        case user
        case ciba, loginHint, bindingMessage, remote
    }

    /// One argument of a command: a value as written (a provider id, a handle, a
    /// placeholder such as `PROVIDER`), an input with its value (`--issuer URL`), or the
    /// end of the command's own options, before another program's command line (`--`).
    public enum Argument: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
        case value(String)
        case input(Input, String?)
        case endOfOptions

        public init(stringLiteral value: String) { self = .value(value) }
        public init(stringInterpolation: DefaultStringInterpolation) { self = .value(String(stringInterpolation: stringInterpolation)) }
    }

    public private(set) var parts: [Part]

    public init(parts: [Part]) {
        var merged: [Part] = []
        for part in parts {
            if case .text(let text) = part, case .text(let previous)? = merged.last {
                merged[merged.count - 1] = .text(previous + text)
            } else if case .text("") = part {
                continue
            } else {
                merged.append(part)
            }
        }
        self.parts = merged
    }

    /// Text that holds nothing of the command line (an error another component wrote).
    public init(verbatim text: String) { self.init(parts: [.text(text)]) }

    public init(stringLiteral value: String) { self.init(verbatim: value) }

    public init(stringInterpolation: StringInterpolation) { self.init(parts: stringInterpolation.parts) }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        public mutating func appendInterpolation(_ value: String) { parts.append(.text(value)) }

        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { parts.append(.text(value.description)) }

        public mutating func appendInterpolation(_ message: Message) { parts.append(contentsOf: message.parts) }

        public mutating func appendInterpolation(command verb: Verb, _ arguments: Argument...) {
            parts.append(.command(verb, arguments))
        }

        public mutating func appendInterpolation(command verb: Verb, arguments: [Argument]) {
            parts.append(.command(verb, arguments))
        }

        public mutating func appendInterpolation(input: Input) { parts.append(.input(input)) }

        public mutating func appendInterpolation(moveAside path: String) { parts.append(.moveAside(path: path)) }

        /// Inputs named one after the other: `--client-id, --team-id`.
        public mutating func appendInterpolation(inputs: [Input], separator: String) {
            for (index, input) in inputs.enumerated() {
                if index > 0 { parts.append(.text(separator)) }
                parts.append(.input(input))
            }
        }
    }

    /// The message as words, each command, input and file move spelled by the front end.
    public func spelled(
        command: (Verb, [Argument]) -> String, input: (Input) -> String, moveAside: (String) -> String = { "‹move \($0) aside›" }
    ) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .command(let verb, let arguments): command(verb, arguments)
            case .input(let name): input(name)
            case .moveAside(let path): moveAside(path)
            }
        }.joined()
    }

    /// A neutral spelling for logs and tests of the core: `‹login microsoft›`, `‹tenant›`.
    public var description: String {
        spelled(
            command: { verb, arguments in
                "‹"
                    + ([verb.rawValue]
                    + arguments.map { argument in
                        switch argument {
                        case .value(let value): value
                        case .input(let input, let value): value.map { "\(input.rawValue) \($0)" } ?? input.rawValue
                        case .endOfOptions: "…"
                        }
                    }).joined(separator: " ") + "›"
            },
            input: { "‹\($0.rawValue)›" })
    }

    /// What failed, without what to do: the message up to its first full stop that ends a
    /// sentence (what a browser page shows; the terminal shows the whole message).
    public var firstSentence: String {
        let words = Array(description)
        var index = 0
        while index + 1 < words.count, !(words[index] == "." && words[index + 1] == " ") { index += 1 }
        return String(words[..<(index + 1 < words.count ? index : (words.last == "." ? words.count - 1 : words.count))])
    }

    /// True when the text parts hold `text`, or a command or input's neutral spelling does.
    public func contains(_ text: String) -> Bool { description.contains(text) }

    /// True when the message names this command (any arguments) or input.
    public func names(_ verb: Verb) -> Bool {
        parts.contains { if case .command(verb, _) = $0 { true } else { false } }
    }

    public func names(input: Input) -> Bool {
        parts.contains { part in
            switch part {
            case .input(input): return true
            case .command(_, let arguments): return arguments.contains { if case .input(input, _) = $0 { true } else { false } }
            default: return false
            }
        }
    }

    /// The message without a trailing `suffix` in its last text (a sentence's full stop, to
    /// go on with the sentence).
    public func dropping(suffix: String) -> Message {
        guard case .text(let last)? = parts.last, last.hasSuffix(suffix) else { return self }
        return Message(parts: parts.dropLast() + [.text(String(last.dropLast(suffix.count)))])
    }

    /// The message with `other` after it.
    public static func + (lhs: Message, rhs: Message) -> Message { Message(parts: lhs.parts + rhs.parts) }
}
