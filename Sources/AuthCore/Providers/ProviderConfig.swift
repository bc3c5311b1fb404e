/// The configuration of one provider (docs/authctl.1 `providers add`), as kept in the config file.
/// A client secret is referenced (environment variable or file), never stored.
public struct ProviderConfig: Codable, Sendable, Equatable {
    public var id: String
    public var clientID: String?
    /// The name of an environment variable holding the client secret.
    public var clientSecretEnv: String?
    /// A file holding the client secret.
    public var clientSecretFile: String?
    /// A PEM (mode 0600) with the client's private key, and for Microsoft its certificate:
    /// the client authenticates by `private_key_jwt` (RFC 7523). Read at each use, never copied.
    public var clientCertificateFile: String?
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
    /// DPoP-bound tokens (RFC 9449): `auto` (the default: when the provider's metadata lists
    /// `dpop_signing_alg_values_supported`), `always` or `never`.
    public var dpop: String?
    /// Pushed authorization requests (RFC 9126): `auto` (the default: when the metadata lists
    /// `pushed_authorization_request_endpoint`), `always` or `never`.
    public var par: String?
    /// `fapi2`: the FAPI 2.0 security profile's requirements (docs/security.md).
    public var profile: String?
    /// `oidc.*` made by `login URL` (docs/resources.md): where the server's metadata is read
    /// when it is not OpenID discovery (RFC 8414's `/.well-known/oauth-authorization-server`).
    public var metadataURL: String?
    /// `oidc.*` registered by `login URL` (RFC 7591): the registration's own URL (RFC 7592),
    /// where `providers remove` deletes it. Its access token is kept as a secret, not here.
    public var registrationClientURI: String?
    /// `oidc.*` saved by `login URL` (RFC 7591 registration, or a client ID metadata document):
    /// the resources it was registered for. It is the resource's own client there; for any other
    /// resource on another origin than its issuer it is a borrowed provider (docs/resources.md).
    public var registeredFor: [String]?
    /// `oidc.*` registered by `login URL` with a secret the server issued (RFC 7591 §3.2.1):
    /// how it is sent, `client_secret_basic` or `client_secret_post`. The secret itself is
    /// kept sealed in the keystore with the registration (docs/resources.md), never here.
    public var tokenEndpointAuthMethod: String?
    /// That secret's `client_secret_expires_at` (seconds since 1970; absent or 0: it does
    /// not expire). An expired one makes the next `login URL` register again.
    public var clientSecretExpiresAt: Int?
    /// `oidc.*` registered by `login URL`: when (seconds since 1970) its server answered
    /// `invalid_client` to a refresh — it no longer knows the client (a restarted MCP server,
    /// a registration deleted). The next `login URL` registers again under the same name.
    public var clientRefusedAt: Int?
    /// `oidc.*` saved by `login URL` for a resource of MCP's 2025-03-26 revision whose origin
    /// publishes no metadata at all: its endpoints are that revision's defaults under the issuer
    /// (`/authorize`, `/token`, `/register`; docs/resources.md), and no metadata is fetched.
    public var defaultEndpoints: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, clientID = "clientId", clientSecretEnv, clientSecretFile, clientCertificateFile, scopes, parameters, redirectURI =
            "redirectUri"
        case listenAddress, issuer, flow, tenant, authorityHost, graphHost
        case teamID = "teamId", keyID = "keyId", privateKeyFile
        case dpop, par, profile
        case metadataURL = "metadataUrl", registrationClientURI = "registrationClientUri", registeredFor
        case tokenEndpointAuthMethod, clientSecretExpiresAt, clientRefusedAt, defaultEndpoints
    }

    public init(
        id: String, clientID: String? = nil, clientSecretEnv: String? = nil, clientSecretFile: String? = nil,
        scopes: [String] = [], parameters: [String: String] = [:], redirectURI: String? = nil,
        listenAddress: String? = nil, issuer: String? = nil, flow: String? = nil, tenant: String? = nil,
        authorityHost: String? = nil, graphHost: String? = nil, teamID: String? = nil, keyID: String? = nil,
        privateKeyFile: String? = nil, dpop: String? = nil, par: String? = nil, profile: String? = nil
    ) {
        self.dpop = dpop
        self.par = par
        self.profile = profile
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
    /// Set in a decoder's `userInfo` to read a damaged file leniently (`ConfigStore.update`).
    static let lenientKey = CodingUserInfoKey(rawValue: "authctl.config.lenient")

    /// `ConfigStore` reads leniently to repair the file (`providers add|remove`): then unknown
    /// keys and values of the wrong type are dropped.
    public init(from decoder: any Decoder) throws {
        let lenient = Self.lenientKey.map { decoder.userInfo[$0] as? Bool == true } ?? false
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
                    T.self == [String].self
                    ? "a list of strings"
                    : T.self == [String: String].self
                        ? "an object of strings"
                        : T.self == Int.self ? "a whole number" : T.self == Bool.self ? "true or false" : "a string"
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
        clientCertificateFile = try value(String.self, .clientCertificateFile)
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
        dpop = try value(String.self, .dpop)
        par = try value(String.self, .par)
        profile = try value(String.self, .profile)
        metadataURL = try value(String.self, .metadataURL)
        registrationClientURI = try value(String.self, .registrationClientURI)
        registeredFor = try value([String].self, .registeredFor)
        tokenEndpointAuthMethod = try value(String.self, .tokenEndpointAuthMethod)
        clientSecretExpiresAt = try value(Int.self, .clientSecretExpiresAt)
        clientRefusedAt = try value(Int.self, .clientRefusedAt)
        defaultEndpoints = try value(Bool.self, .defaultEndpoints)
    }

    /// True for a client `login URL` saved for resources (registered by RFC 7591, or a client
    /// ID metadata document's): its grants go when it is removed (docs/resources.md).
    public var savedForResources: Bool { registeredFor != nil || registrationClientURI != nil }

    /// The methods a registered secret is sent by (`tokenEndpointAuthMethod`), as RFC 7591 names them.
    public static let registeredSecretMethods = ["client_secret_basic", "client_secret_post"]

    /// True for a client `login URL` registered (RFC 7591), not a client ID metadata document's
    /// (whose client id is the document's https URL): the one kind registered again when its
    /// server forgets it.
    public var registeredDynamically: Bool {
        savedForResources && clientID.flatMap(URL.init(string:))?.scheme != "https"
    }

    /// True for a client whose secret the server issued at registration (kept in the keystore).
    public var hasRegisteredSecret: Bool { tokenEndpointAuthMethod != nil }

    /// Whether that secret has expired at `now`, or will within `margin` seconds.
    public func registeredSecretExpired(at now: Date, margin: TimeInterval = 0) -> Bool {
        guard hasRegisteredSecret, let expiresAt = clientSecretExpiresAt, expiresAt > 0 else { return false }
        return Double(expiresAt) <= now.timeIntervalSince1970 + margin
    }

    /// Whether a protocol extension is used: when the provider offers it, always, or never.
    public enum Use: String, Sendable, Equatable, CaseIterable {
        case auto, always, never
    }

    /// `dpop`, `auto` when absent (validated on load; an unknown value reads as `auto`).
    /// Under `fapi2`, `always` whatever it says (validation refuses another value).
    public var dpopUse: Use { isFAPI2 ? .always : dpop.flatMap(Use.init(rawValue:)) ?? .auto }
    /// `par`, `auto` when absent; under `fapi2`, `always`.
    public var parUse: Use { isFAPI2 ? .always : par.flatMap(Use.init(rawValue:)) ?? .auto }
    /// `profile` is `fapi2`.
    public var isFAPI2: Bool { profile == "fapi2" }

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
}

/// Any key of a JSON object, to list the keys of a provider entry.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
