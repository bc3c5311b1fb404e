import Foundation

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

    enum CodingKeys: String, CodingKey {
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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        clientID = try c.decodeIfPresent(String.self, forKey: .clientID)
        clientSecretEnv = try c.decodeIfPresent(String.self, forKey: .clientSecretEnv)
        clientSecretFile = try c.decodeIfPresent(String.self, forKey: .clientSecretFile)
        scopes = try c.decodeIfPresent([String].self, forKey: .scopes) ?? []
        parameters = try c.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
        redirectURI = try c.decodeIfPresent(String.self, forKey: .redirectURI)
        listenAddress = try c.decodeIfPresent(String.self, forKey: .listenAddress)
        issuer = try c.decodeIfPresent(String.self, forKey: .issuer)
        flow = try c.decodeIfPresent(String.self, forKey: .flow)
        tenant = try c.decodeIfPresent(String.self, forKey: .tenant)
        authorityHost = try c.decodeIfPresent(String.self, forKey: .authorityHost)
        graphHost = try c.decodeIfPresent(String.self, forKey: .graphHost)
        teamID = try c.decodeIfPresent(String.self, forKey: .teamID)
        keyID = try c.decodeIfPresent(String.self, forKey: .keyID)
        privateKeyFile = try c.decodeIfPresent(String.self, forKey: .privateKeyFile)
    }

    /// Checks a configuration before it is saved: every problem that can be seen now is
    /// an `invalid-argument` naming the option.
    public func validate() throws {
        let providerID = try ProviderID(parsing: id)
        if let clientID, clientID.isEmpty {
            throw AuthError.invalidArgument("--client-id is empty. Pass the client id the provider gave your app")
        }
        if clientSecretEnv != nil, clientSecretFile != nil {
            throw AuthError.invalidArgument("--client-secret-env and --client-secret-file exclude each other. Keep one")
        }
        try AuthorizationRequest.checkCustomParameters(parameters.sorted { $0.key < $1.key })
        if let redirectURI {
            guard let url = URL(string: redirectURI), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil
            else {
                throw AuthError.invalidArgument(
                    "--redirect-uri '\(Sanitize.text(redirectURI))' is not an http(s) URL. Use for example http://127.0.0.1:8400/callback")
            }
        }
        if let listenAddress { _ = try ListenAddress(parsing: listenAddress) }
        if case .oidc = providerID.kind {
            guard let issuer else {
                throw AuthError.invalidArgument(
                    "\(id) needs --issuer URL (the provider's issuer; discovery is at ISSUER/.well-known/openid-configuration)")
            }
            guard let url = URL(string: issuer), url.scheme != nil, url.host != nil, url.query == nil, url.fragment == nil else {
                throw AuthError.invalidArgument(
                    "--issuer '\(Sanitize.text(issuer))' is not a URL. Use for example https://auth.example.com")
            }
            do {
                try EndpointPolicy.check(url, what: "--issuer")
            } catch let error as AuthError {
                throw AuthError.invalidArgument(error.message)
            }
        } else if case .apple = providerID.kind, let issuer {
            // Overridable for tests and local fakes (SPEC §2); https off loopback.
            try Self.checkHost(issuer, option: "--issuer", example: "https://appleid.apple.com")
        } else if issuer != nil {
            throw AuthError.invalidArgument("--issuer applies to oidc.* and apple.com providers only")
        }
        if case .apple = providerID.kind {
            for (value, option) in [(teamID, "--team-id"), (keyID, "--key-id")] {
                if let value, value.count != 10 || !value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
                    throw AuthError.invalidArgument(
                        "\(option) '\(Sanitize.text(value, limit: 20))' is not an Apple id: 10 capital letters and digits, as the Apple developer site shows it"
                    )
                }
            }
        } else {
            for (value, option) in [(teamID, "--team-id"), (keyID, "--key-id"), (privateKeyFile, "--private-key-file")] where value != nil {
                throw AuthError.invalidArgument("\(option) applies to apple.com only")
            }
        }
        if case .microsoft = providerID.kind {
            if let tenant { _ = try MicrosoftTenant(parsing: tenant) }
            if let authorityHost {
                try Self.checkHost(authorityHost, option: "--authority-host", example: "https://login.microsoftonline.us")
            }
            if let graphHost { try Self.checkHost(graphHost, option: "--graph-host", example: "https://graph.microsoft.us") }
        } else {
            for (value, option) in [(tenant, "--tenant"), (authorityHost, "--authority-host"), (graphHost, "--graph-host")]
            where value != nil {
                throw AuthError.invalidArgument("\(option) applies to microsoft.com only")
            }
        }
        if flow == "implicit" {
            throw AuthError.invalidArgument(
                "--flow implicit is not supported by this version of authctl yet; use the default code flow (safer)")
        }
        if let flow, flow != "code" {
            throw AuthError.invalidArgument("--flow must be 'code', not '\(Sanitize.text(flow, limit: 20))'")
        }
    }
}

extension ProviderConfig {
    /// A host option (`--authority-host`, `--graph-host`): an `https://` origin (or `http://`
    /// on loopback, for tests), without path, query or fragment.
    static func checkHost(_ text: String, option: String, example: String) throws {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), url.scheme != nil, let host = url.host, !host.isEmpty, url.path.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw AuthError.invalidArgument(
                "\(option) '\(Sanitize.text(text))' is not a host URL. Use for example \(example) (scheme and host, no path)")
        }
        do {
            try EndpointPolicy.check(url, what: option)
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
        let usage =
            "--listen-address '\(Sanitize.text(text, limit: 60))' is not HOST:PORT on a loopback address. Use for example 127.0.0.1:8400 or [::1]:8400"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw AuthError.invalidArgument(usage)
        }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard EndpointPolicy.isLoopback(host: host) else { throw AuthError.invalidArgument(usage) }
        self.init(host: host, port: port)
    }
}

/// The configuration file: every registered provider.
public struct ConfigFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1
    public var version: Int
    public var providers: [String: ProviderConfig]

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

    public func load() throws -> ConfigFile {
        guard let data = try SafeFile.read(path, what: "the configuration file", code: .providerNotConfigured) else { return ConfigFile() }
        guard let file = try? JSONDecoder().decode(ConfigFile.self, from: data), file.version <= ConfigFile.currentVersion else {
            throw AuthError.notConfigured(
                "the configuration file \(path) is corrupt or from a newer authctl. Fix or move it away (mv '\(path)' '\(path).bad') and add the providers again"
            )
        }
        return file
    }

    public func provider(_ id: ProviderID) throws -> ProviderConfig {
        guard let config = try load().providers[id.rawValue] else {
            throw AuthError.notConfigured(
                "the provider \(id) is not configured. Add it with: authctl providers add \(id) --client-id ID\(id.rawValue.hasPrefix("oidc.") ? " --issuer URL" : "")"
            )
        }
        return config
    }

    public func update(_ change: (inout ConfigFile) throws -> Void) async throws {
        let lock = try await FileLock.acquire(for: path, timeout: 30, what: "the configuration file")
        defer { lock.release() }
        var file = try load()
        try change(&file)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try SafeFile.writeAtomically(try encoder.encode(file), to: path, what: "the configuration file", random: random)
    }
}
