import ArgumentParser
import AuthCore

struct Login: AuthctlCommand {
    var signsIn: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a provider through the browser (or with an ID token, or a pending credential).",
        discussion: """
            Opens the provider's sign-in page and waits for it to redirect back to a listener on 127.0.0.1.
            With --id-token - the ID token is read from stdin instead; with --credential HANDLE a pending credential \
            saved by an earlier conflict is applied (see accounts.md in the documentation).

            Examples:
              # through the browser
              authctl login oidc.example
              # one Entra ID tenant
              authctl login microsoft --tenant contoso.onmicrosoft.com
              # over SSH, no browser here
              authctl login oidc.example --device-code
              # a CI job as itself
              authctl login oidc.example --client-credentials \\
                  --client-secret-env CLIENT_SECRET
              # a protected resource by its URL (resources.md)
              authctl login https://api.example.com/mcp
              # two resources of one authorization server, one sign-in
              authctl login https://api.example.com/mcp https://files.example.com/docs
              # the same through your company's identity provider, no browser
              authctl login https://api.example.com/mcp --via oidc.corp
            """)

    @Argument(
        help:
            "The provider: microsoft.com (or microsoft), apple.com (or apple) or oidc.NAME; or a protected resource's https URL; default: the only configured one; not needed with --credential.",
        completion: Completions.providerIDs)
    var provider: String?
    @Argument(
        help: ArgumentHelp(
            "After a resource's URL: more resources of the same authorization server, signed in to by the same sign-in (each token is then valid at all of them).",
            valueName: "more-urls"))
    var moreResources: [String] = []
    @OptionGroup var flow: FlowArguments
    @OptionGroup var credential: CredentialArguments
    @OptionGroup var workload: WorkloadArguments
    @Option(
        name: .customLong("credential"),
        help: ArgumentHelp(
            "Apply a pending credential (its pc_ handle) saved by an earlier credential-already-in-use error.", valueName: "handle"))
    var pendingHandle: String?
    @OptionGroup var resource: ResourceLoginArguments
    @OptionGroup var global: GlobalOptions

    /// True when the argument is a resource's URL rather than a provider id.
    var signsInToResource: Bool { provider?.contains("://") == true }

    func validate() throws {
        if !moreResources.isEmpty {
            guard signsInToResource, moreResources.allSatisfy({ $0.contains("://") }) else {
                throw ValidationError(
                    "more than one argument: only resources of one authorization server are signed in to together, each by its https URL (authctl login https://… https://…); a provider is signed in to alone"
                )
            }
            if workload.isWorkload || resource.via != nil {
                throw ValidationError(
                    "\(resource.via != nil ? "--via" : workload.grantOption) signs in to one resource: name one URL")
            }
        }
        if signsInToResource {
            let refused: [(String, Bool)] = [
                ("--credential", pendingHandle != nil), ("--id-token", credential.idToken != nil),
                ("--tenant", flow.tenant != nil),
                ("--client-metadata-url with \(workload.grantOption)", workload.isWorkload && resource.clientMetadataURL != nil),
            ]
            if let (option, _) = refused.first(where: \.1) { throw ValidationError("\(option) has no use with a resource's URL") }
            if resource.provider != nil, resource.clientMetadataURL != nil {
                throw ValidationError("give either --provider or --client-metadata-url: one client for the sign-in")
            }
        } else if resource.issuer != nil || resource.clientMetadataURL != nil || resource.provider != nil || resource.via != nil {
            throw ValidationError(
                "--issuer, --client-metadata-url, --provider and --via go with a resource's URL (authctl login https://…)")
        }
        if resource.requestedTokenType != nil, resource.via == nil {
            throw ValidationError("--requested-token-type goes with --via (authctl login https://… --via PROVIDER)")
        }
        if resource.via != nil {
            let browserless: [(String, Bool)] = [
                (workload.grantOption, workload.isWorkload), ("--client-metadata-url", resource.clientMetadataURL != nil),
                ("--device-code", flow.deviceCode), ("--manual", flow.manual), ("--remote", flow.remote), ("--ciba", flow.ciba),
                ("--no-browser", flow.noBrowser), ("--browser-command", flow.browserCommand != nil), ("--param", !flow.parameters.isEmpty),
                ("--redirect-uri", flow.redirectURI != nil), ("--listen-address", flow.listenAddress != nil),
            ]
            if let (option, _) = browserless.first(where: \.1) {
                throw ValidationError("\(option) has no use with --via: the identity you hold is exchanged, with no browser")
            }
        }
        if pendingHandle != nil, credential.idToken != nil { throw ValidationError("give either --credential or --id-token, not both") }
        if workload.isWorkload {
            let interactive: [(String, Bool)] = [
                ("--credential", pendingHandle != nil), ("--id-token", credential.idToken != nil), ("--device-code", flow.deviceCode),
                ("--manual", flow.manual), ("--remote", flow.remote), ("--ciba", flow.ciba), ("--no-browser", flow.noBrowser),
                ("--browser-command", flow.browserCommand != nil),
                ("--param", !flow.parameters.isEmpty), ("--redirect-uri", flow.redirectURI != nil),
                ("--listen-address", flow.listenAddress != nil),
            ]
            if let (option, _) = interactive.first(where: \.1) {
                throw ValidationError("\(option) has no use with \(workload.grantOption): a workload signs in without a browser")
            }
        }
    }

    func run(_ wiring: Wiring) async throws {
        if signsInToResource, let url = provider {
            if workload.isWorkload { return try await signInWorkloadToResource(url, wiring: wiring) }
            if let via = resource.via { return try await chainToResource(url, via: via, wiring: wiring) }
            return try await signInToResource(url, wiring: wiring)
        }
        // Without a provider (and no pending credential, which names its own): the only one configured.
        let provider = try pendingHandle == nil ? self.provider ?? Self.onlyProvider(wiring) : self.provider
        if workload.isWorkload, let provider { return try await signInWorkload(provider, wiring: wiring) }
        let useCases = wiring.useCases(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser))
        let signIn = try useCases.signIn()
        let source = try pendingHandle.map { CredentialSource.pending(handle: $0) } ?? credential.source(flow: flow, wiring: wiring)
        let output = try await signIn.run(.init(providerID: try provider.map(ProviderID.init(parsing:)), source: source))
        wiring.output.accountResult(
            user: output.user, providerID: output.providerID, isNewUser: output.isNewUser, json: global.json,
            text:
                "Signed in to \(output.providerID) as \(Output.name(of: output.user))\(output.isNewUser ? " (new user \(output.user.uid))" : "")."
        )
        if output.isNewUser, let profiles = try? wiring.keystore().readProfiles(),
            let notice = Self.sameEmailNotice(output.user, providerID: output.providerID, in: profiles)
        {
            wiring.terminal.notice(notice)
        }
    }

    /// docs/accounts.md: a new user whose email another user already has (the provider did not
    /// say it verified it, so no account rule joined them). Says so, and how to have one user.
    static func sameEmailNotice(_ user: User, providerID: String, in state: AccountState) -> String? {
        guard let email = user.email?.lowercased(), user.kind == .person,
            let other = state.usersByCreation.first(where: { $0.uid != user.uid && $0.kind == .person && $0.email?.lowercased() == email })
        else { return nil }
        let shownEmail = Sanitize.text(email, limit: 80)
        let otherProviders = other.providerData.map(\.providerID)
        let signInAgain = otherProviders.first.map { "authctl login \($0)" } ?? "authctl users use \(other.uid)"
        return
            "Note: the user \(other.uid) (\(otherProviders.isEmpty ? "no provider" : otherProviders.joined(separator: ", "))) already has the email \(shownEmail); \(providerID) did not say it verified it, so this sign-in made a second user (\(user.uid)). To have one user instead, link \(providerID) to the first: authctl users delete \(user.uid), then \(signInAgain), then authctl link \(providerID) (docs/accounts.md)."
    }

    /// The provider to sign in to when none is named: the only configured one; with none,
    /// how to add one; with several, which they are.
    static func onlyProvider(_ wiring: Wiring) throws -> String {
        let configured = try wiring.configStore().load().providers.keys.sorted()
        guard let first = configured.first else {
            throw AuthError.notConfigured(
                "no provider is configured yet. Add the one to sign in to: \(command: .providersAdd, "oidc.NAME", .input(.issuer, "URL"), .input(.clientID, "ID")), then: \(command: .login, "oidc.NAME")"
            )
        }
        guard configured.count == 1 else {
            throw AuthError.invalidArgument(
                "name the provider to sign in to, one of \(configured.joined(separator: ", ")): \(command: .login, "\(first)")")
        }
        return first
    }

    /// The line that says a resource's sign-in registered authctl (`login URL`, and the sign-ins
    /// `request` runs itself).
    static func noticeRegistration(_ output: ResourceSignIn.Output, wiring: Wiring) {
        guard output.registeredProvider else { return }
        wiring.terminal.notice(
            "Registered authctl at \(output.grant.issuer) as the provider \(output.providerID) (remove it with: authctl providers remove \(output.providerID))."
        )
    }

    /// `login URL` (docs/resources.md): discovery, a client, the sign-in, the resource's grant.
    func signInToResource(_ url: String, wiring: Wiring) async throws {
        let useCases = wiring.useCases(browser: wiring.browser(command: flow.browserCommand, disabled: flow.opensNoBrowser))
        let output = try await useCases.resourceSignIn.run(
            .init(
                resource: url, moreResources: moreResources, issuer: resource.issuer, clientMetadataURL: resource.clientMetadataURL,
                options: try flow.flowOptions(environment: wiring.environment),
                provider: try resource.provider.map(ProviderID.init(parsing:)),
                consented: resource.provider != nil))
        Self.noticeRegistration(output, wiring: wiring)
        if global.json {
            wiring.output.json(
                .object([
                    "user": Output.user(output.user), "providerId": .string(output.providerID), "isNewUser": .bool(output.isNewUser),
                    "resource": .string(output.grant.resource), "issuer": .string(output.grant.issuer),
                    "resources": .array(output.grants.map { .string($0.resource) }),
                    "registeredProvider": .bool(output.registeredProvider), "grantOwner": .string(Self.ownerName(output.owner)),
                    "scopes": .array((output.grant.tokens?.scopes ?? []).map(JSONValue.string)),
                ]))
        } else {
            let resources = output.grants.map(\.resource).joined(separator: " and ")
            wiring.output.line(
                "Signed in to \(resources) at \(output.grant.issuer) (\(output.providerID)); the grant\(output.grants.count > 1 ? "s are" : " is") kept for \(Self.owner(output))."
            )
        }
    }

    /// Who holds the grant, and why (docs/resources.md).
    static func owner(_ output: ResourceSignIn.Output) -> String {
        let name = Output.name(of: output.user)
        return switch output.owner {
        case .identity: "\(name), the account the server signed in"
        case .currentUser:
            "the current user \(name): the server returned no ID token, so it named nobody (ask for --scope openid to have it say)"
        case .newUser: "a new user \(output.user.uid), now current: nobody was signed in and the server named nobody"
        }
    }

    /// `--json`'s `grantOwner`: `identity`, `current-user` or `new-user`.
    static func ownerName(_ owner: ResourceSignIn.GrantOwner) -> String {
        switch owner {
        case .identity: "identity"
        case .currentUser: "current-user"
        case .newUser: "new-user"
        }
    }

    /// `login URL --client-credentials` or `--jwt-bearer` (docs/resources.md, "Machines and CI"):
    /// the workload's grant for the resource, with the client the options name (a configured provider named
    /// with `--provider` lends its configured secret, as for `login PROVIDER --client-credentials`).
    func signInWorkloadToResource(_ url: String, wiring: Wiring) async throws {
        let useCases = wiring.useCases()
        let named = try resource.provider.map(ProviderID.init(parsing:))
        let configured = try named.map { try useCases.configStore.provider($0) } ?? ProviderConfig(id: "oidc.RESOURCE-SERVER")
        guard let client = try workload.client(flow: flow, configured: configured) else {
            throw AuthError.internalError("a workload sign-in without a client")
        }
        let output = try await useCases.resourceWorkloadSignIn.run(
            .init(resource: url, issuer: resource.issuer, provider: named, client: client))
        if global.json {
            wiring.output.json(
                .object([
                    "user": Output.user(output.user), "providerId": .string(output.providerID), "isNewUser": .bool(output.isNewUser),
                    "resource": .string(output.grant.resource), "issuer": .string(output.grant.issuer),
                    "scopes": .array((output.grant.tokens?.scopes ?? []).map(JSONValue.string)),
                ]))
        } else {
            wiring.output.line(
                "Signed in to \(output.grant.resource) as the workload \(client.clientID) at \(output.grant.issuer)\(output.isNewUser ? " (new user \(output.user.uid))" : "")."
            )
        }
    }

    /// `login URL --via P` (docs/resources.md, "Enterprise-managed authorization"): the identity
    /// at P exchanged for a grant to the resource's authorization server, presented there.
    func chainToResource(_ url: String, via: String, wiring: Wiring) async throws {
        let useCases = wiring.useCases()
        // The user `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current one.
        let chosen = try wiring.chosenIdentity()
        let output = try await useCases.resourceChain.run(
            .init(
                resource: url, issuer: resource.issuer, via: try ProviderID(parsing: via), grantType: resource.requestedTokenType ?? .idJAG,
                scopes: flow.scopes, provider: try resource.provider.map(ProviderID.init(parsing:)), uid: chosen.uid,
                chosenBy: chosen.chosenBy))
        Self.noticeRegistration(output, wiring: wiring)
        if global.json {
            wiring.output.json(
                .object([
                    "user": Output.user(output.user), "providerId": .string(output.providerID), "isNewUser": .bool(false),
                    "resource": .string(output.grant.resource), "issuer": .string(output.grant.issuer),
                    "registeredProvider": .bool(output.registeredProvider), "grantOwner": .string(Self.ownerName(output.owner)),
                    "viaProviderId": .string(via), "scopes": .array((output.grant.tokens?.scopes ?? []).map(JSONValue.string)),
                ]))
        } else {
            wiring.output.line(
                "Signed in to \(output.grant.resource) at \(output.grant.issuer) (\(output.providerID)) through your identity at \(via), with no browser; the grant is kept for \(Output.name(of: output.user)) and renewed through \(via)."
            )
        }
    }

    /// `--client-credentials` or `--jwt-bearer`: the workload's grant, then its account (docs/ci.md).
    func signInWorkload(_ provider: String, wiring: Wiring) async throws {
        let id = try ProviderID(parsing: provider)
        let useCases = wiring.useCases()
        let configured = try useCases.configStore.workloadProvider(id)
        guard let client = try workload.client(flow: flow, configured: configured) else {
            throw AuthError.internalError("a workload sign-in without a client")
        }
        let output = try await useCases.workloadSignIn.run(.init(providerID: id, client: client))
        wiring.output.accountResult(
            user: output.user, providerID: output.providerID, isNewUser: output.isNewUser, json: global.json,
            text:
                "Signed in to \(output.providerID) as the workload \(client.clientID)\(output.isNewUser ? " (new user \(output.user.uid))" : "")."
        )
    }
}
