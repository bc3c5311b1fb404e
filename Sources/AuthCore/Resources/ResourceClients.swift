/// The client a resource's sign-in uses at an authorization server (docs/resources.md), in
/// this order: a provider already configured for that issuer; else a client ID metadata
/// document, when the server supports them and the person gave its https URL; else a client
/// registered now (RFC 7591), saved as a provider named after the server's host, with the
/// resource it was registered for. A client is only ever used at the issuer it was configured
/// or registered for. A configured client used for a resource on another origin is *borrowed*
/// (`Client.isBorrowed`): `ResourceSignIn` uses it only with the person's consent.
public struct ResourceClients: Sendable {
    let configStore: ConfigStore
    let transport: any HTTPTransport
    let secrets: any RegistrationSecrets
    /// When a registered client secret expires (`client_secret_expires_at`).
    let clock: any Clock
    /// The port a registration's redirect URI names: one free now, the first of the
    /// issuer's `preferredPorts` that is (`RedirectReceivers.freePort`); nil: the first of them.
    let freePort: @Sendable ([UInt16]) -> UInt16?

    public init(
        configStore: ConfigStore, transport: any HTTPTransport, secrets: any RegistrationSecrets, clock: any Clock,
        freePort: @escaping @Sendable ([UInt16]) -> UInt16? = { _ in nil }
    ) {
        self.configStore = configStore
        self.transport = transport
        self.secrets = secrets
        self.clock = clock
        self.freePort = freePort
    }

    public struct Client: Sendable, Equatable {
        public var config: ProviderConfig
        /// True when this sign-in saved the provider (registered, or a metadata document's).
        public var registered: Bool

        /// docs/resources.md: a provider the person configured (their company's IdP), or one
        /// authctl registered for another resource, used for `resource` on another origin than
        /// its issuer's. A client registered for this resource, or one on the resource's own
        /// origin, is not borrowed.
        public func isBorrowed(for resource: ResourceIdentifier) -> Bool {
            if registered || (config.registeredFor ?? []).contains(resource.description) { return false }
            guard let issuer = config.issuer.flatMap(URL.init(string:)) else { return true }
            return ResourceIdentifier.origin(of: issuer) != resource.origin
        }
    }

    /// `login URL --provider P`: the provider the person named, which must be a client of the
    /// resource's authorization server.
    public func configured(_ id: ProviderID, for server: AuthorizationServerMetadata) throws -> Client {
        let config = try configStore.provider(id)
        let issuer = server.document.issuer
        guard case .oidc = id.kind, config.clientID != nil, config.issuer == issuer else {
            throw AuthError.invalidArgument(
                "the provider \(id) is not a client of \(Sanitize.text(issuer, limit: 100)), the resource's authorization server\(config.issuer.map { " (it is configured for \(Sanitize.text($0, limit: 100)))" } ?? ""). Name a provider configured for that issuer, or leave out \(input: .provider)"
            )
        }
        return Client(config: config, registered: false)
    }

    /// The provider a workload's `login URL --client-credentials` uses at `server` (its own
    /// client id and credentials go with the workload): the one named, which must be configured
    /// for that issuer; else the first configured for it; else one saved now, named after the
    /// server's host, with no client of its own (nothing is registered: a workload's client is
    /// registered by the server's operator). No consent is asked: the workload's token is its
    /// own, not a person's account lent to the resource.
    public func workloadProvider(_ named: ProviderID?, for server: AuthorizationServerMetadata, resource: ResourceIdentifier)
        async throws -> Client
    {
        let issuer = server.document.issuer
        if let named {
            let config = try configStore.provider(named)
            guard case .oidc = named.kind, config.issuer == issuer else {
                throw AuthError.invalidArgument(
                    "the provider \(named) is not configured for \(Sanitize.text(issuer, limit: 100)), the resource's authorization server. Name a provider of that issuer, or leave out \(input: .provider)"
                )
            }
            return Client(config: config, registered: false)
        }
        let providers = try configStore.load().providers.values.sorted { $0.id < $1.id }
        if let configured = providers.first(where: { $0.id.hasPrefix("oidc.") && $0.issuer == issuer }) {
            return Client(config: configured, registered: false)
        }
        var config = ProviderConfig(id: try Self.providerID(for: issuer, taken: Set(providers.map(\.id))).rawValue, issuer: issuer)
        config.registeredFor = [resource.description]
        config.locate(server)
        try await save(config)
        return Client(config: config, registered: true)
    }

    /// The redirect URIs registered: the loopback listener's on any port (RFC 8252 §7.3), and the
    /// same on one port for servers that compare redirect URIs exactly, as the MCP Python SDK's
    /// does: `port`, one free at registration, else the issuer's first preferred one. The
    /// client's sign-ins use the one with the port (its `redirectUri`), which both kinds of
    /// server take; the listener binds that port.
    public static func registeredRedirectURIs(for issuer: String, port: UInt16? = nil) -> [String] {
        ["http://127.0.0.1/callback", "http://127.0.0.1:\(port ?? preferredPorts(for: issuer)[0])/callback"]
    }

    /// Eight ports of `RedirectListener.unlentPorts` chosen from the issuer (FNV-1a), the same for
    /// one server and most likely others for another.
    public static func preferredPorts(for issuer: String) -> [UInt16] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in issuer.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let ports = RedirectListener.unlentPorts
        return (0..<8).map { ports.lowerBound + UInt16(truncatingIfNeeded: (hash &+ UInt64($0) &* 569) % UInt64(ports.count)) }
    }

    /// - Parameters:
    ///   - also: the other resources of one sign-in for several (`login URL URL2 …`): a client
    ///     registered now is registered for each (`registeredFor`), as the person named them all.
    ///   - grantTypes: the grants a client registered now asks for.
    public func client(
        for server: AuthorizationServerMetadata, resource: ResourceIdentifier, also: [ResourceIdentifier] = [],
        clientMetadataURL: String?, grantTypes: [String] = ClientRegistration.defaultGrantTypes
    ) async throws -> Client {
        let issuer = server.document.issuer
        let providers = try configStore.load().providers.values.sorted { $0.id < $1.id }
        let clients = providers.filter { $0.id.hasPrefix("oidc.") && $0.issuer == issuer && $0.clientID != nil }
        // The one registered for this resource first: it needs no consent.
        if let configured = clients.first(where: { ($0.registeredFor ?? []).contains(resource.description) }) ?? clients.first {
            // A client the server no longer knows (`invalid_client` to a refresh): register again.
            if configured.clientRefusedAt != nil, configured.registeredDynamically {
                return try await reregister(configured, at: server, for: [resource] + also, grantTypes: grantTypes)
            }
            // A registered secret expired, or lost (a keystore moved aside): register again.
            if configured.hasRegisteredSecret {
                let kept = try await secrets.clientSecret(for: configured.id)
                // A minute early: the sign-in that follows takes time. A secret of another client
                // or issuer (config.json changed, a backup restored) is as good as lost.
                if kept?.belongs(issuer: configured.issuer, clientID: configured.clientID) != true
                    || configured.registeredSecretExpired(at: clock.now(), margin: 60)
                {
                    return try await reregister(configured, at: server, for: [resource] + also, grantTypes: grantTypes)
                }
            }
            return Client(config: configured, registered: false)
        }
        let id = try Self.providerID(for: issuer, taken: Set(providers.map(\.id)))
        var config = ProviderConfig(id: id.rawValue, issuer: issuer)
        config.registeredFor = ([resource] + also).map(\.description)
        config.locate(server)
        if let clientMetadataURL, server.clientIDMetadataDocumentSupported {
            guard let url = URL(string: clientMetadataURL), url.scheme == "https", url.host != nil, url.fragment == nil,
                !url.path.isEmpty, url.path != "/"
            else {
                throw AuthError.invalidArgument(
                    "'\(Sanitize.text(clientMetadataURL, limit: 100))' cannot be a client ID metadata document's URL: it must be https with a path"
                )
            }
            config.clientID = url.absoluteString
            try await save(config)
            return Client(config: config, registered: true)
        }
        return try await register(config, at: server, replacing: false, grantTypes: grantTypes)
    }

    /// `configured` registered again under its name (its secret expired, or its server forgot
    /// it). It stays a borrowed provider for a resource it was not registered for
    /// (`Client.isBorrowed`: the person's consent is asked as before).
    /// Registered for this sign-in only when it was for every resource named (`resources`):
    /// lent to another, it asks the person's consent as before.
    func reregister(
        _ configured: ProviderConfig, at server: AuthorizationServerMetadata, for resources: [ResourceIdentifier],
        grantTypes: [String] = ClientRegistration.defaultGrantTypes
    ) async throws -> Client {
        var client = try await register(configured, at: server, replacing: true, grantTypes: grantTypes)
        client.registered = resources.allSatisfy { (configured.registeredFor ?? []).contains($0.description) }
        return client
    }

    /// Registers authctl (RFC 7591) as `config` at `server` and saves it: a new provider, or
    /// (`replacing`) the one whose registered secret expired or whose server forgot it, under
    /// the same name.
    private func register(
        _ config: ProviderConfig, at server: AuthorizationServerMetadata, replacing: Bool,
        grantTypes: [String] = ClientRegistration.defaultGrantTypes
    ) async throws -> Client {
        let issuer = server.document.issuer
        guard let endpoint = server.registrationEndpoint else {
            throw AuthError.notConfigured(
                "the authorization server \(Sanitize.text(issuer, limit: 100)) offers no client registration\(server.clientIDMetadataDocumentSupported ? " (it takes a client ID metadata document: give its URL with \(input: .clientMetadataURL) URL)" : "")\(replacing ? ", and the client authctl registered as \(config.id) must be registered again (its secret expired, or the server forgot it)" : ""). Register a client with its operator, then add it: \(command: .providersAdd, "oidc.NAME", .input(.issuer, issuer), .input(.clientID, "ID"))"
            )
        }
        let redirectURIs = Self.registeredRedirectURIs(for: issuer, port: freePort(Self.preferredPorts(for: issuer)))
        let registration = ClientRegistration(
            endpoint: endpoint, redirectURIs: redirectURIs, grantTypes: grantTypes,
            authMethod: ClientRegistration.method(supported: server.document.tokenEndpointAuthMethodsSupported))
        let registered = try registration.registered(try await transport.send(registration.httpRequest))
        var config = config
        config.clientRefusedAt = nil
        config.clientID = registered.clientID
        config.redirectURI = redirectURIs.last
        config.registrationClientURI = registered.registrationClientURI?.absoluteString
        config.tokenEndpointAuthMethod = registered.clientSecret == nil ? nil : registered.authMethod
        config.clientSecretExpiresAt =
            registered.clientSecret != nil && registered.clientSecretExpiresAt > 0 ? registered.clientSecretExpiresAt : nil
        // Whichever write fails, the next sign-in registers again rather than use a wrong secret:
        // a new client is saved first (one saved without its secret is registered again), a
        // replaced one's secrets are replaced first (the old expiry still stands in config.json).
        let keep = {
            guard registered.registrationAccessToken != nil || registered.clientSecret != nil || replacing else { return }
            try await secrets.store(
                registered.registrationAccessToken,
                clientSecret: registered.clientSecret.map {
                    RegisteredClientSecret(secret: $0, issuer: issuer, clientID: registered.clientID)
                },
                for: config.id,
                clientURI: registered.registrationClientURI)
        }
        if replacing { try await keep() }
        try await save(config, replacing: replacing)
        if !replacing { try await keep() }
        return Client(config: config, registered: true)
    }

    private func save(_ config: ProviderConfig, replacing: Bool = false) async throws {
        try config.validate()
        try await configStore.update { file in
            // Another process may have saved one meanwhile: never two clients for one name.
            if !replacing, file.providers[config.id] != nil {
                throw AuthError.notConfigured("the provider \(config.id) was configured meanwhile. Sign in again")
            }
            file.providers[config.id] = config
        }
    }

    /// `oidc.` and the server's host (`auth.example.com` → `oidc.auth-example-com`), with
    /// `-2`, `-3`… when that name is taken by another server's provider.
    static func providerID(for issuer: String, taken: Set<String>) throws -> ProviderID {
        let host = URL(string: issuer)?.host?.lowercased() ?? "server"
        var base = String(
            host.unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "-" }
        )
        while base.contains("--") { base = base.replacingEvery("--", with: "-") }
        base = String(base.trimming(ScalarSet(charactersIn: "-")).prefix(40))
        if base.isEmpty { base = "server" }
        var candidate = "oidc.\(base)"
        var counter = 2
        while taken.contains(candidate) {
            candidate = "oidc.\(base)-\(counter)"
            counter += 1
        }
        return try ProviderID(parsing: candidate)
    }
}

extension ProviderConfig {
    /// Where a client saved for `server` finds its endpoints again: RFC 8414's document
    /// (`metadataUrl`; OpenID discovery's is the default), or MCP 2025-03-26's default endpoints.
    mutating func locate(_ server: AuthorizationServerMetadata) {
        if server.defaultEndpoints {
            defaultEndpoints = true
        } else if !server.source.path.hasSuffix("/.well-known/openid-configuration") {
            metadataURL = server.source.absoluteString
        }
    }
}
