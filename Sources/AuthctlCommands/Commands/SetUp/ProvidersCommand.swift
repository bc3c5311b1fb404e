import ArgumentParser
import AuthCore

struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "Register and inspect providers (configuration, not accounts).",
        subcommands: [Add.self, List.self, Show.self, Remove.self])

    struct Add: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Register or update a provider.",
            discussion:
                "Options given replace the stored ones; others stay; --clear-… removes a stored one. A client secret is referenced (environment variable or file), never copied into the configuration. The provider's discovery document is fetched and checked before anything is saved (--no-check: an offline set-up)."
        )

        @Argument(help: "The provider id: microsoft.com, apple.com or oidc.NAME; or a preset: google, gitlab, okta, auth0, keycloak.")
        var provider: String
        @Option(
            help: ArgumentHelp(
                "Build the issuer of this oidc.* provider from a preset: google, gitlab, okta, auth0 or keycloak.", valueName: "name"),
            completion: .list(ProviderPreset.allCases.map(\.rawValue)))
        var preset: String?
        @Option(help: "Presets: the provider's domain (https:// is added; http:// is allowed on loopback only).") var domain: String?
        @Option(help: "keycloak preset: the realm.") var realm: String?
        @Option(
            name: .customLong("authorization-server"),
            help: ArgumentHelp("okta preset: a custom authorization server's id.", valueName: "id"))
        var authorizationServer: String?
        @Option(name: .customLong("client-id"), help: "The client id registered at the provider.") var clientID: String?
        @Option(
            name: .customLong("client-secret-env"),
            help: ArgumentHelp("An environment variable holding the client secret.", valueName: "var")) var clientSecretEnv: String?
        @Option(
            name: .customLong("client-secret-file"), help: ArgumentHelp("A file (mode 0600) holding the client secret.", valueName: "path"),
            completion: .file())
        var clientSecretFile: String?
        @Option(
            name: .customLong("client-certificate-file"),
            help: ArgumentHelp(
                "A PEM (mode 0600) with the client's private key, and for Microsoft its certificate: the client authenticates by private_key_jwt (RFC 7523).",
                valueName: "path"), completion: .file())
        var clientCertificateFile: String?
        @Option(name: .customLong("scope"), help: "A default scope (repeatable).") var scopes: [String] = []
        @Option(name: .customLong("param"), help: ArgumentHelp("A default custom parameter (repeatable).", valueName: "key=value"))
        var parameters: [String] = []
        @Option(name: .customLong("redirect-uri"), help: "The redirect URI to send (a loopback URI with a port fixes the listening port).")
        var redirectURI: String?
        @Option(name: .customLong("listen-address"), help: ArgumentHelp("Where the redirect listener binds.", valueName: "host:port"))
        var listenAddress: String?
        @Option(
            help:
                "oidc.*: the issuer URL (discovery at ISSUER/.well-known/openid-configuration); apple.com: default https://appleid.apple.com (tests)."
        )
        var issuer: String?
        @Option(help: "oidc.*: code (default) or implicit.") var flow: String?
        @Option(help: "DPoP-bound tokens (RFC 9449): auto (default: when the provider offers them), always or never.")
        var dpop: String?
        @Option(help: "Pushed authorization requests (RFC 9126): auto (default: when the provider offers them), always or never.")
        var par: String?
        @Option(help: "fapi2: require what FAPI 2.0 requires (pushed requests, DPoP, iss on the redirect); none: no profile.")
        var profile: String?
        @Option(help: "microsoft.com: common (default), organizations, consumers, a tenant id (GUID) or a tenant domain.")
        var tenant: String?
        @Option(
            name: .customLong("authority-host"),
            help: ArgumentHelp("microsoft.com: the sign-in host (default https://login.microsoftonline.com).", valueName: "url"))
        var authorityHost: String?
        @Option(
            name: .customLong("graph-host"),
            help: ArgumentHelp("microsoft.com: the Microsoft Graph host (default https://graph.microsoft.com).", valueName: "url"))
        var graphHost: String?
        @Option(name: .customLong("team-id"), help: "apple.com: the team id (10 characters).") var teamID: String?
        @Option(name: .customLong("key-id"), help: "apple.com: the id of the Sign in with Apple key (10 characters).") var keyID: String?
        @Option(
            name: .customLong("private-key-file"),
            help: ArgumentHelp("apple.com: the AuthKey_KEYID.p8 file (mode 0600; read when needed, never copied).", valueName: "path"),
            completion: .file())
        var privateKeyFile: String?
        @Flag(name: .customLong("clear-scopes"), help: "Remove the stored default scopes.") var clearScopes = false
        @Flag(name: .customLong("clear-params"), help: "Remove the stored custom parameters.") var clearParameters = false
        @Flag(name: .customLong("clear-redirect-uri"), help: "Remove the stored redirect URI (back to the default).") var clearRedirectURI =
            false
        @Flag(name: .customLong("clear-listen-address"), help: "Remove the stored listen address (back to an ephemeral port).")
        var clearListenAddress = false
        @Flag(name: .customLong("clear-client-secret"), help: "Remove the stored client secret source or key file (a public client).")
        var clearClientSecret = false
        @Flag(
            name: .customLong("no-check"),
            help: "Save without fetching the provider's discovery document (an offline set-up; it is checked at the first sign-in).")
        var noCheck = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if clientSecretEnv != nil, clientSecretFile != nil {
                throw ValidationError(
                    "--client-secret-env and --client-secret-file exclude each other: the secret comes from one place. Keep one")
            }
            if clientCertificateFile != nil, clientSecretEnv != nil || clientSecretFile != nil {
                throw ValidationError(
                    "--client-certificate-file and a client secret (--client-secret-env, --client-secret-file) exclude each other: the client authenticates one way. Keep one"
                )
            }
            let conflicts: [(Bool, Bool, String, String)] = [
                (!scopes.isEmpty, clearScopes, "--scope", "--clear-scopes"),
                (!parameters.isEmpty, clearParameters, "--param", "--clear-params"),
                (redirectURI != nil, clearRedirectURI, "--redirect-uri", "--clear-redirect-uri"),
                (listenAddress != nil, clearListenAddress, "--listen-address", "--clear-listen-address"),
                (
                    clientSecretEnv != nil || clientSecretFile != nil || clientCertificateFile != nil, clearClientSecret,
                    "--client-secret-env/--client-secret-file/--client-certificate-file",
                    "--clear-client-secret"
                ),
            ]
            for (given, cleared, option, clear) in conflicts where given && cleared {
                throw ValidationError(
                    "\(option) and \(clear) exclude each other: give the new value (it replaces the stored one) or clear it")
            }
        }

        /// The preset named by the argument or `--preset`, and the provider id it saves under.
        func resolvedPreset() throws -> (ProviderID, ProviderPreset?) {
            if let named = ProviderPreset(rawValue: provider) {
                if let preset, preset != named.rawValue {
                    throw AuthError.invalidArgument(
                        "\(provider) is a preset already; --preset \(Sanitize.text(preset, limit: 40)) contradicts it. Keep one")
                }
                return (try ProviderID(parsing: named.defaultProviderID), named)
            }
            let id = try ProviderID(parsing: provider)
            guard let preset else {
                if domain != nil || realm != nil || authorizationServer != nil {
                    throw AuthError.invalidArgument(
                        "--domain, --realm and --authorization-server apply to a preset: name it (authctl providers add google|gitlab|okta|auth0|keycloak …) or add --preset NAME"
                    )
                }
                return (id, nil)
            }
            guard let chosen = ProviderPreset(rawValue: preset) else {
                throw AuthError.invalidArgument(
                    "'\(Sanitize.text(preset, limit: 40))' is not a preset. Use one of: \(ProviderPreset.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            guard ProviderRegistry.kind(of: id).takesPresets else {
                throw AuthError.invalidArgument("--preset applies to oidc.* providers; \(id) has its own settings. Leave it out")
            }
            return (id, chosen)
        }

        func run(_ wiring: Wiring) async throws {
            let (id, chosenPreset) = try resolvedPreset()
            // The preset's issuer, when it is being set: --issuer wins (a local fake), and an
            // update of a configured provider without a preset option keeps the stored one.
            var presetIssuer: String?
            if let chosenPreset, issuer == nil {
                let configured = (try? wiring.configStore().load().providers[id.rawValue]?.issuer) != nil
                if !configured || domain != nil || realm != nil || authorizationServer != nil {
                    presetIssuer = try chosenPreset.issuer(domain: domain, realm: realm, authorizationServer: authorizationServer)
                }
            }
            let secrets = wiring.secretSource
            let parsed = try Dictionary(parameters.map(FlowArguments.parseParameter), uniquingKeysWith: { $1 })
            // A key file that could not be used fails now, not at the first sign-in.
            if let privateKeyFile {
                try await ProviderRegistry.kind(of: id).checkPrivateKeyFile(
                    privateKeyFile, keyID: keyID, secrets: secrets, now: wiring.io.clock.now())
            }
            let config = try await Providers(configStore: wiring.configStore()).add(
                id,
                merge: { config in
                    if clearScopes { config.scopes = [] }
                    if clearParameters { config.parameters = [:] }
                    if clearRedirectURI { config.redirectURI = nil }
                    if clearListenAddress { config.listenAddress = nil }
                    if clearClientSecret { config.clientSecretEnv = nil; config.clientSecretFile = nil; config.clientCertificateFile = nil }
                    if let clientID { config.clientID = clientID }
                    // One way to authenticate: the one given replaces any other.
                    if let clientSecretEnv {
                        config.clientSecretEnv = clientSecretEnv; config.clientSecretFile = nil; config.clientCertificateFile = nil
                    }
                    if let clientSecretFile {
                        config.clientSecretFile = clientSecretFile; config.clientSecretEnv = nil; config.clientCertificateFile = nil
                    }
                    if let clientCertificateFile {
                        config.clientCertificateFile = URL(fileURLWithPath: clientCertificateFile).standardizedFileURL.path
                        config.clientSecretEnv = nil; config.clientSecretFile = nil
                    }
                    if !scopes.isEmpty { config.scopes = scopes }
                    if !parsed.isEmpty { config.parameters = parsed }
                    if let redirectURI { config.redirectURI = redirectURI }
                    if let listenAddress { config.listenAddress = listenAddress }
                    if let issuer = issuer ?? presetIssuer { config.issuer = issuer }
                    if let flow { config.flow = flow }
                    if let dpop { config.dpop = dpop }
                    if let par { config.par = par }
                    if let profile { config.profile = profile == "none" ? nil : profile }
                    if let tenant { config.tenant = tenant }
                    if let authorityHost { config.authorityHost = authorityHost }
                    if let graphHost { config.graphHost = graphHost }
                    if let teamID { config.teamID = teamID }
                    if let keyID { config.keyID = keyID }
                    if let privateKeyFile { config.privateKeyFile = URL(fileURLWithPath: privateKeyFile).standardizedFileURL.path }
                },
                check: { _ in
                    // A secret file that cannot be read (missing, not private) fails now, not at the
                    // first sign-in. Its content is read and dropped: never printed, never copied.
                    if let clientSecretFile { _ = try secrets.fileContents(clientSecretFile) }
                    if let clientCertificateFile { _ = try secrets.certificateFile(clientCertificateFile, option: .clientCertificateFile) }
                },
                discovery: noCheck ? nil : DiscoveryCheck(transport: wiring.useCases().transport, clock: wiring.io.clock))
            if global.json {
                wiring.output.json(ProvidersCommand.json(config))
            } else {
                wiring.output.line("Saved \(config.id) in \(wiring.configPath).")
            }
        }
    }

    struct List: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered providers.")
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let providers = try Providers(configStore: wiring.configStore()).list()
            if global.json {
                wiring.output.json(.object(["providers": .array(providers.map(ProvidersCommand.json))]))
            } else if providers.isEmpty {
                wiring.output.line("No providers. Add one with: authctl providers add oidc.NAME --issuer URL --client-id ID")
            } else {
                wiring.output.table(
                    header: ["PROVIDER", "ISSUER", "CLIENT ID"],
                    rows: providers.map { config in
                        [
                            config.id, (try? ProviderRegistry.provider(for: config).issuer) ?? config.issuer ?? "",
                            config.clientID ?? "(no client id)",
                        ]
                    })
            }
        }
    }

    struct Show: AuthctlCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a provider's configuration.")
        @Argument(help: "The provider id.", completion: Completions.providerIDs) var provider: String
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let config = try Providers(configStore: wiring.configStore()).show(ProviderID(parsing: provider))
            if global.json {
                wiring.output.json(ProvidersCommand.json(config))
            } else {
                for case let (key, value?) in ProvidersCommand.fields(config) { wiring.output.line("\(key): \(value)") }
            }
        }
    }

    struct Remove: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a provider's configuration (accounts stay in the keystore).")
        @Argument(help: "The provider id.", completion: Completions.providerIDs) var provider: String
        @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation on a terminal.") var yes = false
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let id = try ProviderID(parsing: provider)
            // Asked only when users still hold tokens for it: without it they cannot refresh.
            let holders =
                (try? wiring.keystore().readProfiles().users.filter { user in
                    user.providerData.contains { $0.providerID == id.rawValue && $0.tokens != nil }
                        || user.resourceGrants.contains { $0.providerID == id.rawValue && $0.tokens != nil }
                }) ?? []
            let removed = try? wiring.configStore().provider(id)
            if !holders.isEmpty {
                try wiring.confirm(
                    "Remove \(id)? \(holders.count == 1 ? "1 user holds" : "\(holders.count) users hold") tokens for it (\(holders.prefix(3).map(Output.name(of:)).joined(separator: ", "))\(holders.count > 3 ? ", …" : "")), which cannot be refreshed without it\(removed?.savedForResources == true ? "; its resource grants are removed with it" : "").",
                    yes: yes)
            }
            try await Providers(configStore: wiring.configStore()).remove(id)
            // A client `login URL` registered (RFC 7592): deleted at its server too, at the
            // registration URL kept with its token (whatever config.json said).
            var registration: ClientRegistrationRemoval.Outcome = .notRegistered
            if let removed {
                let useCases = wiring.useCases()
                registration = await ClientRegistrationRemoval(transport: useCases.transport, secrets: useCases.registrationSecrets)
                    .remove(removed)
                switch registration {
                case .failed(let reason):
                    wiring.output.error("authctl: warning: the registration of \(id) at its server could not be deleted (\(reason)).")
                case .unbound:
                    wiring.output.error(
                        "authctl: warning: the registration of \(id) was kept before authctl recorded where its token may go, so the token was not sent and is forgotten; the registration may remain at the server (\(Sanitize.text(removed.registrationClientURI ?? "?", limit: 200)))."
                    )
                case .deleted, .notRegistered: break
                }
            }
            // Its resource grants can be neither refreshed nor revoked without it: they go too.
            var grantsRemoved = 0
            if let removed, removed.savedForResources {
                do {
                    grantsRemoved = try await Providers.removeResourceGrants(of: id, from: wiring.keystore())
                } catch let error as AuthError {
                    wiring.output.error(
                        "authctl: warning: the resource grants of \(id) could not be removed from the keystore (\(error.message.firstSentence)); sign out to drop them: authctl signout"
                    )
                }
            }
            if global.json {
                var document: [String: JSONValue] = ["removed": .string(id.rawValue)]
                if registration == .deleted { document["registrationDeleted"] = .bool(true) }
                if grantsRemoved > 0 { document["resourceGrantsRemoved"] = .number(Double(grantsRemoved)) }
                wiring.output.json(.object(document))
            } else {
                let grants =
                    grantsRemoved == 0 ? "" : grantsRemoved == 1 ? ", its resource grant" : ", its \(grantsRemoved) resource grants"
                wiring.output.line(
                    "Removed \(id)\(grants)\(registration == .deleted ? " and deleted its registration at the server" : "").")
            }
        }
    }

    static func fields(_ config: ProviderConfig) -> [(String, String?)] {
        [
            ("providerId", config.id), ("issuer", config.issuer), ("clientId", config.clientID),
            ("clientSecretEnv", config.clientSecretEnv), ("clientSecretFile", config.clientSecretFile),
            ("clientCertificateFile", config.clientCertificateFile),
            ("scopes", config.scopes.isEmpty ? nil : config.scopes.joined(separator: " ")),
            (
                "parameters",
                config.parameters.isEmpty
                    ? nil : config.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            ),
            ("redirectUri", config.redirectURI), ("listenAddress", config.listenAddress), ("flow", config.flow),
            ("tenant", config.tenant), ("authorityHost", config.authorityHost), ("graphHost", config.graphHost),
            ("teamId", config.teamID), ("keyId", config.keyID), ("privateKeyFile", config.privateKeyFile),
            ("dpop", config.dpop), ("par", config.par), ("profile", config.profile),
            ("metadataUrl", config.metadataURL), ("registrationClientUri", config.registrationClientURI),
            (
                "defaultEndpoints",
                config.defaultEndpoints == true ? "true (no metadata: /authorize, /token, /register under the issuer)" : nil
            ),
            // The secret a registration issued: how it is sent and until when; never the secret.
            ("tokenEndpointAuthMethod", config.tokenEndpointAuthMethod.map { "\($0) (its secret is kept in the keystore)" }),
            (
                "clientSecretExpiresAt",
                config.clientSecretExpiresAt.flatMap { $0 > 0 ? Output.rfc3339(Date(timeIntervalSince1970: Double($0))) : nil }
            ),
        ]
    }

    static func json(_ config: ProviderConfig) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for case let (key, value?) in fields(config) { object[key] = .string(value) }
        object["scopes"] = .array(config.scopes.map(JSONValue.string))
        object["parameters"] = .object(config.parameters.mapValues(JSONValue.string))
        object["tokenEndpointAuthMethod"] = config.tokenEndpointAuthMethod.map(JSONValue.string)
        return .object(object)
    }
}
