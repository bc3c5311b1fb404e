/// The configuration of one provider (SPEC §2 `providers add`), as kept in the config file.
/// A client secret is referenced (environment variable or file), never stored.
public struct ProviderConfig: Codable, Sendable, Equatable {
    public var id: String
    public var clientID: String?
    /// The name of an environment variable holding the client secret.
    public var clientSecretEnv: String?
    /// A file holding the client secret.
    public var clientSecretFile: String?
    /// Default scopes added to the provider's own defaults.
    public var scopes: [String]
    /// Default custom parameters of the authorization request.
    public var parameters: [String: String]
    public var redirectURI: String?
    public var listenAddress: String?
    /// `oidc.*`: the issuer; discovery is at `<issuer>/.well-known/openid-configuration`.
    public var issuer: String?
    /// `oidc.*`: `code` (default) or `implicit`.
    public var flow: String?
    /// `microsoft.com`: the tenant (`common` when absent), see `MicrosoftTenant`.
    public var tenant: String?
    /// `microsoft.com`: the sign-in host (`https://login.microsoftonline.com` when absent).
    public var authorityHost: String?
    /// `microsoft.com`: the Microsoft Graph host (`https://graph.microsoft.com` when absent).
    public var graphHost: String?
    /// `apple.com`: the team id (10 characters).
    public var teamID: String?
    /// `apple.com`: the id of the Sign in with Apple key (10 characters).
    public var keyID: String?
    /// `apple.com`: the path of the `.p8` private key (mode 0600; never copied).
    public var privateKeyFile: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, clientID = "clientId", clientSecretEnv, clientSecretFile, scopes, parameters, redirectURI = "redirectUri"
        case listenAddress, issuer, flow, tenant, authorityHost, graphHost
        case teamID = "teamId", keyID = "keyId", privateKeyFile
    }

    public init(
        id: String, clientID: String? = nil, clientSecretEnv: String? = nil, clientSecretFile: String? = nil,
        scopes: [String] = [], parameters: [String: String] = [:], redirectURI: String? = nil,
        listenAddress: String? = nil, issuer: String? = nil, flow: String? = nil, tenant: String? = nil,
        authorityHost: String? = nil, graphHost: String? = nil, teamID: String? = nil, keyID: String? = nil,
        privateKeyFile: String? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.clientSecretEnv = clientSecretEnv
        self.clientSecretFile = clientSecretFile
        self.scopes = scopes
        self.parameters = parameters
        self.redirectURI = redirectURI
        self.listenAddress = listenAddress
        self.issuer = issuer
        self.flow = flow
        self.tenant = tenant
        self.authorityHost = authorityHost
        self.graphHost = graphHost
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyFile = privateKeyFile
    }

    /// Reads one entry of config.json. A key authctl does not know is refused (a typo would
    /// silently lose a setting; a `clientSecret` written by hand would be ignored), unless
    /// `ConfigStore` reads leniently to repair the file (`providers add|remove`): then unknown
    /// keys and values of the wrong type are dropped.
    public init(from decoder: any Decoder) throws {
        let lenient = ConfigStore.lenientKey.map { decoder.userInfo[$0] as? Bool == true } ?? false
        let entry = decoder.codingPath.last?.stringValue
        if !lenient {
            for key in try decoder.container(keyedBy: AnyCodingKey.self).allKeys where CodingKeys(rawValue: key.stringValue) == nil {
                throw ConfigFieldError(
                    field: key.stringValue, error: Self.unknownKey(key.stringValue, provider: entry ?? "ID"), provider: entry)
            }
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            do {
                return try c.decodeIfPresent(type, forKey: key)
            } catch {
                if lenient { return nil }
                let expected =
                    T.self == [String].self ? "a list of strings" : T.self == [String: String].self ? "an object of strings" : "a string"
                throw ConfigFieldError(field: key.rawValue, error: .notConfigured("the value is not \(expected)"), provider: entry)
            }
        }
        guard let id = try value(String.self, .id) ?? (lenient ? entry : nil) else {
            throw ConfigFieldError(
                field: "id", error: .notConfigured("it is missing; it repeats the entry's key: \"id\": \"\(entry ?? "oidc.NAME")\""),
                provider: entry)
        }
        self.id = id
        clientID = try value(String.self, .clientID)
        clientSecretEnv = try value(String.self, .clientSecretEnv)
        clientSecretFile = try value(String.self, .clientSecretFile)
        scopes = try value([String].self, .scopes) ?? []
        parameters = try value([String: String].self, .parameters) ?? [:]
        redirectURI = try value(String.self, .redirectURI)
        listenAddress = try value(String.self, .listenAddress)
        issuer = try value(String.self, .issuer)
        flow = try value(String.self, .flow)
        tenant = try value(String.self, .tenant)
        authorityHost = try value(String.self, .authorityHost)
        graphHost = try value(String.self, .graphHost)
        teamID = try value(String.self, .teamID)
        keyID = try value(String.self, .keyID)
        privateKeyFile = try value(String.self, .privateKeyFile)
    }

    /// An unknown key of a provider entry; one that looks like a secret gets where secrets go.
    static func unknownKey(_ key: String, provider: String) -> AuthError {
        let folded = key.lowercased().replacingEvery("_", with: "").replacingEvery("-", with: "")
        if ["secret", "privatekey", "password", "token", "credential"].contains(where: folded.contains) || folded == "key" {
            return .notConfigured(
                "it holds a secret, and a secret never goes in the configuration file (copies, backups and `providers show` would carry it). Delete the field and give the secret by reference: \(command: .providersAdd, "\(provider)", .input(.clientSecretEnv, "VAR")) (an environment variable) or \(input: .clientSecretFile) PATH (a file of mode 0600)"
            )
        }
        let known = CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
        return .notConfigured("authctl knows no such setting (a provider entry has: \(known)). Delete the field or correct its name")
    }

    /// Checks a configuration before it is saved: every problem that can be seen now is
    /// an `invalid-argument` naming the option.
    public func validate() throws {
        do {
            try checkFields()
        } catch let problem as ConfigFieldError {
            throw problem.error
        }
    }

    /// The rules of `validate`, each problem tagged with its config.json field, so that the
    /// same rules judge `providers add` (naming the option) and a file read back (naming the
    /// field, `ConfigStore.load`).
    func checkFields() throws {
        func field(_ key: CodingKeys, _ check: () throws -> Void) throws {
            do { try check() } catch let error as AuthError { throw ConfigFieldError(field: key.rawValue, error: error) }
        }
        var parsedID: ProviderID?
        try field(.id) { parsedID = try ProviderID(parsing: id) }
        guard let providerID = parsedID else { return }
        try field(.clientID) {
            if let clientID { try Self.checkLine(clientID, option: .clientID, what: "the client id the provider gave your app") }
        }
        try field(.clientSecretEnv) {
            if let clientSecretEnv, !Self.isEnvironmentName(clientSecretEnv) {
                throw AuthError.invalidArgument(
                    "\(input: .clientSecretEnv) '\(Sanitize.text(clientSecretEnv, limit: 60))' is not the name of an environment variable (letters, digits and _, not starting with a digit). Write for example \(input: .clientSecretEnv) MY_CLIENT_SECRET"
                )
            }
        }
        try field(.clientSecretFile) {
            if let clientSecretFile {
                try Self.checkLine(
                    clientSecretFile, option: .clientSecretFile, what: "the path of a file (mode 0600) holding the client secret")
            }
            if clientSecretEnv != nil, clientSecretFile != nil {
                throw AuthError.invalidArgument("\(input: .clientSecretEnv) and \(input: .clientSecretFile) exclude each other. Keep one")
            }
        }
        try field(.scopes) { for scope in scopes { try ScopeSyntax.check(scope, option: .scope) } }
        try field(.parameters) {
            for (name, value) in parameters where name.isEmpty || name.contains(where: \.isNewline) || value.contains(where: \.isNewline) {
                throw AuthError.invalidArgument(
                    "\(input: .parameter) '\(Sanitize.text(name, limit: 40))' is not KEY=VALUE on one line. Write for example \(input: .parameter) prompt=login"
                )
            }
            try AuthorizationRequest.checkCustomParameters(parameters.sorted { $0.key < $1.key })
        }
        try field(.redirectURI) { if let redirectURI { try Self.checkRedirectURI(redirectURI) } }
        try field(.listenAddress) { if let listenAddress { _ = try ListenAddress(parsing: listenAddress) } }
        try field(.issuer) {
            if case .oidc = providerID.kind {
                guard let issuer else {
                    throw AuthError.invalidArgument(
                        "\(id) needs \(input: .issuer) URL (the provider's issuer; discovery is at ISSUER/.well-known/openid-configuration)"
                    )
                }
                guard let url = URLComponents(string: issuer)?.url, url.scheme != nil, url.host != nil, url.query == nil,
                    url.fragment == nil,
                    !issuer.contains(where: { $0.isWhitespace })
                else {
                    throw AuthError.invalidArgument(
                        "\(input: .issuer) '\(Sanitize.text(issuer))' is not a URL. Use for example https://auth.example.com")
                }
                do {
                    try EndpointPolicy.check(url, what: "\(input: .issuer)")
                } catch let error as AuthError {
                    throw AuthError.invalidArgument(error.message)
                }
            } else if case .apple = providerID.kind, let issuer {
                // Overridable for tests and local fakes (SPEC §2); https off loopback.
                try Self.checkHost(issuer, option: .issuer, example: "https://appleid.apple.com")
            } else if issuer != nil {
                throw AuthError.invalidArgument("\(input: .issuer) applies to oidc.* and apple.com providers only")
            }
        }
        if case .apple = providerID.kind {
            for (value, option, key): (String?, Message.Input, CodingKeys) in [(teamID, .teamID, .teamID), (keyID, .keyID, .keyID)] {
                try field(key) {
                    if let value, value.count != 10 || !value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
                        throw AuthError.invalidArgument(
                            "\(input: option) '\(Sanitize.text(value, limit: 20))' is not an Apple id: 10 capital letters and digits, as the Apple developer site shows it"
                        )
                    }
                }
            }
            try field(.privateKeyFile) {
                if let privateKeyFile {
                    try Self.checkLine(privateKeyFile, option: .privateKeyFile, what: "the path of the .p8 key file")
                }
            }
        } else {
            for (value, option, key): (String?, Message.Input, CodingKeys) in [
                (teamID, .teamID, .teamID), (keyID, .keyID, .keyID),
                (privateKeyFile, .privateKeyFile, .privateKeyFile),
            ] where value != nil {
                throw ConfigFieldError(field: key.rawValue, error: .invalidArgument("\(input: option) applies to apple.com only"))
            }
        }
        if case .microsoft = providerID.kind {
            try field(.tenant) { if let tenant { _ = try MicrosoftTenant(parsing: tenant) } }
            try field(.authorityHost) {
                if let authorityHost {
                    try Self.checkHost(authorityHost, option: .authorityHost, example: "https://login.microsoftonline.us")
                    try MicrosoftTenant.checkAuthorityHostPath(authorityHost)
                }
            }
            try field(.graphHost) {
                if let graphHost { try Self.checkHost(graphHost, option: .graphHost, example: "https://graph.microsoft.us") }
            }
        } else {
            for (value, option, key): (String?, Message.Input, CodingKeys) in [
                (tenant, .tenant, .tenant), (authorityHost, .authorityHost, .authorityHost),
                (graphHost, .graphHost, .graphHost),
            ] where value != nil {
                throw ConfigFieldError(field: key.rawValue, error: .invalidArgument("\(input: option) applies to microsoft.com only"))
            }
        }
        try field(.flow) {
            if let flow, flow != "code", flow != "implicit" {
                throw AuthError.invalidArgument(
                    "\(input: .flow) must be 'code' (the default) or 'implicit', not '\(Sanitize.text(flow, limit: 20))'")
            }
            if flow == "implicit" {
                guard case .oidc = providerID.kind else {
                    throw AuthError.invalidArgument(
                        "\(input: .flow) implicit applies to oidc.* providers only; \(id) signs in with the code flow")
                }
            }
        }
    }

    /// What `providers add` needs beyond valid values: an `oidc.*` provider is only usable
    /// with a client id (its issuer `validate()` already requires). Not checked on load, so
    /// that a configuration written by hand can still be completed with `providers add`.
    public func checkComplete() throws {
        switch try ProviderID(parsing: id).kind {
        case .oidc:
            guard clientID == nil else { return }
            throw AuthError.invalidArgument(
                "\(id) needs \(input: .clientID): the client id the provider gave your app (\(command: .providersAdd, "\(id)", .input(.clientID, "CLIENT_ID")))"
            )
        case .apple:
            // Every Apple token request is signed with the key (docs/apple.md): all four are needed.
            var missing: [Message.Input] = []
            if clientID == nil { missing.append(.clientID) }
            if teamID == nil { missing.append(.teamID) }
            if keyID == nil { missing.append(.keyID) }
            if privateKeyFile == nil { missing.append(.privateKeyFile) }
            guard let first = missing.first else { return }
            let named: Message = missing.dropFirst().reduce("\(input: first)") { "\($0), \(input: $1)" }
            throw AuthError.invalidArgument(
                "\(id) needs \(named): the Services ID, your team id, and the id and file of the Sign in with Apple key (\(command: .providersAdd, "apple.com", .input(.clientID, "SERVICES_ID"), .input(.teamID, "TEAM_ID"), .input(.keyID, "KEY_ID"), .input(.privateKeyFile, "AuthKey_KEY_ID.p8")); see apple.md in the documentation)"
            )
        case .microsoft:
            // A workload names its client on the command line (login --client-credentials).
            return
        }
    }

    /// A one-line value (client id, a path): not blank, no control characters.
    static func checkLine(_ value: String, option: Message.Input, what: String) throws {
        if value.trimming(.whitespacesAndNewlines).isEmpty {
            throw AuthError.invalidArgument("\(input: option) is \(value.isEmpty ? "empty" : "blank"). Pass \(what)")
        }
        if value.unicodeScalars.contains(where: { ScalarSet.controlCharacters.contains($0) }) {
            throw AuthError.invalidArgument(
                "\(input: option) '\(Sanitize.text(value, limit: 60))' has a line break or a control character. Pass \(what), on one line")
        }
    }

    /// An environment variable's name as POSIX shells accept it.
    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || ScalarSet.alphanumerics.contains($0)) }
    }

    /// `--redirect-uri`: an http(s) URL with a host and, when it has a port, one in 0…65535
    /// (a loopback URI's port becomes the listener's).
    public static func checkRedirectURI(_ text: String) throws {
        let components = URLComponents(string: text)
        guard let components, let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            components.host?.isEmpty == false, !text.contains(where: { $0.isWhitespace })
        else {
            throw AuthError.invalidArgument(
                "\(input: .redirectURI) '\(Sanitize.text(text))' is not an http(s) URL. Use for example http://127.0.0.1:8400/callback")
        }
        if let port = components.port, !(0...65535).contains(port) {
            throw AuthError.invalidArgument(
                "\(input: .redirectURI) '\(Sanitize.text(text))' has port \(port); a port is 0…65535. Use for example http://127.0.0.1:8400/callback"
            )
        }
    }
}

/// A rule of a provider's configuration that one field breaks: `field` is its config.json
/// key, `error` the message `providers add` gives (naming the option).
public struct ConfigFieldError: Error, Sendable {
    public let field: String
    public let error: AuthError
    /// The entry's key in the file, when known where the problem was found.
    public var provider: String?
}

/// Any key of a JSON object, to list the keys of a provider entry.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// One OAuth scope (RFC 6749 §3.3: `scope-token = 1*NQCHAR`, printable ASCII without
/// space, `"` and `\`).
public enum ScopeSyntax {
    public static func isValid(_ scope: String) -> Bool {
        !scope.isEmpty && scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    public static func check(_ scope: String, option: Message.Input) throws {
        guard isValid(scope) else {
            throw AuthError.invalidArgument(
                "\(input: option) '\(Sanitize.text(scope, limit: 60))' is not one scope: printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3). Repeat \(input: option) for several"
            )
        }
    }
}

extension ProviderConfig {
    /// A base URL option (`--authority-host`, `--graph-host`, Apple's `--issuer`, SPEC §2):
    /// `scheme://host[:port][/path]`, `https://` (or `http://` on loopback, for tests), with
    /// no query, fragment or credentials. A path is kept — AD FS serves under `/adfs`, a
    /// gateway or a test server may serve each provider under its own path — and every
    /// endpoint is built under it; a trailing slash is dropped where endpoints are built.
    static func checkHost(_ text: String, option: Message.Input, example: String) throws {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), url.scheme != nil, let host = url.host, !host.isEmpty, url.query == nil,
            url.fragment == nil, url.user == nil, url.password == nil, !trimmed.hasSuffix("/")
        else {
            // The text is not echoed whole: it may hold credentials.
            throw AuthError.invalidArgument(
                "\(input: option) is not a base URL: write scheme://host[:port][/path] with no query, fragment or user name, for example \(example)"
            )
        }
        do {
            try EndpointPolicy.check(url, what: "\(input: option)")
        } catch let error as AuthError {
            throw AuthError.invalidArgument(error.message)
        }
    }
}

/// `--listen-address HOST:PORT` (a loopback address; port 0 for an ephemeral one).
public struct ListenAddress: Sendable, Equatable {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws {
        let usage: Message =
            "\(input: .listenAddress) '\(Sanitize.text(text, limit: 60))' is not HOST:PORT on a loopback address. Use for example 127.0.0.1:8400 or [::1]:8400"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw AuthError.invalidArgument(usage)
        }
        let host = String(text[..<colon]).trimming(ScalarSet(charactersIn: "[]"))
        guard EndpointPolicy.isLoopback(host: host) else { throw AuthError.invalidArgument(usage) }
        self.init(host: host, port: port)
    }
}

/// The configuration file: every registered provider.
public struct ConfigFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1
    public var version: Int
    public var providers: [String: ProviderConfig]
    /// Where users live (SPEC §9): absent or `local` — the keystore; `firebase` — the project
    /// of `firebase`.
    public var backend: String?
    /// The Firebase project of `backend use firebase`, kept when the backend goes back to local.
    public var firebase: FirebaseConfig?

    public init(providers: [String: ProviderConfig] = [:]) {
        version = Self.currentVersion
        self.providers = providers
    }
}

/// Reads and writes the configuration file (0600, atomic writes).
public struct ConfigStore: Sendable {
    public let path: String
    let random: any RandomSource

    public init(path: String, random: any RandomSource) {
        self.path = path
        self.random = random
    }

    /// Set in a decoder's `userInfo` to read a damaged file leniently (see `update`).
    static let lenientKey = CodingUserInfoKey(rawValue: "authctl.config.lenient")

    /// Reads the file and holds every entry to the rules of `providers add`: a file edited by
    /// hand fails here (`provider-not-configured`, naming the file, the provider and the
    /// field), never later in a sign-in.
    public func load() throws -> ConfigFile {
        let file = try read(lenient: false)
        for (key, config) in file.providers.sorted(by: { $0.key < $1.key }) {
            do {
                guard key == config.id else {
                    throw ConfigFieldError(
                        field: "id",
                        error: .notConfigured(
                            "it is '\(Sanitize.text(config.id, limit: 60))' but the entry is filed under '\(Sanitize.text(key, limit: 60))'; the two must be equal"
                        ))
                }
                try config.checkFields()
            } catch let problem as ConfigFieldError {
                throw fieldError(problem, provider: key)
            }
        }
        try checkBackend(file)
        return file
    }

    /// The file as it is. `lenient` (for `update`, so that `providers add|remove` can repair
    /// a damaged entry) drops unknown keys and values of the wrong type instead of failing.
    func read(lenient: Bool) throws -> ConfigFile {
        guard let data = try SafeFile.read(path, what: "the configuration file", code: .providerNotConfigured) else { return ConfigFile() }
        let decoder = JSONDecoder()
        if lenient, let key = Self.lenientKey { decoder.userInfo[key] = true }
        let file: ConfigFile
        do {
            file = try decoder.decode(ConfigFile.self, from: data)
        } catch let problem as ConfigFieldError {
            throw fieldError(problem, provider: nil)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.keyNotFound(_, context)
        {
            let path = context.codingPath.map(\.stringValue)
            throw corrupt(
                path.count > 2
                    ? "provider \(Sanitize.text(path[1], limit: 60)), field \"\(Sanitize.text(path[2], limit: 60))\" has the wrong type"
                    : "\(path.joined(separator: ".")) is not as expected")
        } catch {
            throw corrupt("it is not valid JSON")
        }
        guard file.version <= ConfigFile.currentVersion else { throw corrupt("it is from a newer authctl (version \(file.version))") }
        return file
    }

    private func corrupt(_ what: String) -> AuthError {
        AuthError.notConfigured(
            "the configuration file \(path) is damaged: \(what). Fix or move it away (mv '\(path)' '\(path).bad') and add the providers again"
        )
    }

    /// A field that breaks a rule, as the file's reader sees it: the file, the provider, the field.
    private func fieldError(_ problem: ConfigFieldError, provider: String?) -> AuthError {
        let id = (provider ?? problem.provider).map { Sanitize.text($0, limit: 60) } ?? "ID"
        let message = problem.error.message.dropping(suffix: ".")
        return AuthError.notConfigured(
            "the configuration file \(path), provider \(id), field \"\(Sanitize.text(problem.field, limit: 60))\": \(message). Correct the field in the file, or remove the provider (\(command: .providersRemove, "\(id)")) and add it again"
        )
    }

    public func provider(_ id: ProviderID) throws -> ProviderConfig {
        let providers = try load().providers
        guard let config = providers[id.rawValue] else {
            // A typo of a configured id (`oidc.crop` for `oidc.corp`) is said first.
            if let nearest = Suggestion.closest(to: id.rawValue, among: Array(providers.keys).sorted()) {
                throw AuthError.notConfigured("the provider \(id) is not configured. Did you mean \(nearest)?")
            }
            let arguments: [Message.Argument] =
                ["\(id)", .input(.clientID, "ID")] + (id.rawValue.hasPrefix("oidc.") ? [.input(.issuer, "URL")] : [])
            throw AuthError.notConfigured(
                "the provider \(id) is not configured. Add it with: \(command: .providersAdd, arguments: arguments)"
            )
        }
        return config
    }

    public func update(_ change: (inout ConfigFile) throws -> Void) async throws {
        let lock = try await FileLock.acquire(for: path, timeout: 30, what: "the configuration file", code: .providerNotConfigured)
        defer { lock.release() }
        var file = try read(lenient: true)
        try change(&file)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try SafeFile.writeAtomically(try encoder.encode(file), to: path, what: "the configuration file", random: random)
    }
}
