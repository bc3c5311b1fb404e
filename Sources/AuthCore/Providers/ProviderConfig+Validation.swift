extension ProviderConfig {
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
            if let clientSecretEnv, KeystoreSecretReference.isKeystoreVariable(clientSecretEnv) {
                throw AuthError.invalidArgument(
                    "\(input: .clientSecretEnv) \(clientSecretEnv) holds or unlocks authctl's own secrets (the keystore's passphrase or key, a token authctl hands out), which are never sent as a client's secret. Name the variable that holds the client's secret"
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
        try field(.clientCertificateFile) {
            guard let clientCertificateFile else { return }
            try Self.checkLine(
                clientCertificateFile, option: .clientCertificateFile,
                what: "the path of a PEM file (mode 0600) holding the client's private key")
            if clientSecretEnv != nil || clientSecretFile != nil {
                throw AuthError.invalidArgument(
                    "\(input: .clientCertificateFile) and a client secret (\(input: .clientSecretEnv), \(input: .clientSecretFile)) exclude each other: the client authenticates one way. Keep one"
                )
            }
            if case .apple = providerID.kind {
                throw AuthError.invalidArgument(
                    "\(input: .clientCertificateFile) does not apply to apple.com: authctl signs Apple's client secret with the key of \(input: .privateKeyFile)"
                )
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
                // Overridable for tests and local fakes (docs/authctl.1); https off loopback.
                try Self.checkHost(issuer, option: .issuer, example: "https://appleid.apple.com")
            } else if issuer != nil {
                throw AuthError.invalidArgument("\(input: .issuer) applies to oidc.* and apple.com providers only")
            }
        }
        // Written by `login URL` (docs/resources.md), not by an option: https URLs of oidc.* only.
        for (value, key) in [(metadataURL, CodingKeys.metadataURL), (registrationClientURI, .registrationClientURI)] {
            guard let value else { continue }
            try field(key) {
                guard case .oidc = providerID.kind, value.count <= 2048, let url = URL(string: value), url.host != nil else {
                    throw AuthError.notConfigured("it is not the https URL of an oidc.* provider")
                }
                try EndpointPolicy.check(url, what: "\(key.rawValue)")
            }
        }
        if let registeredFor {
            try field(.registeredFor) {
                guard case .oidc = providerID.kind, registeredFor.count <= 100,
                    registeredFor.allSatisfy({ (try? ResourceIdentifier(parsing: $0))?.description == $0 })
                else { throw AuthError.notConfigured("it is not a list of resource identifiers of an oidc.* provider") }
            }
        }
        // Also written by `login URL`: a registered secret is sent one of two ways, and only by
        // a client saved for resources that names no secret of its own.
        if let tokenEndpointAuthMethod {
            try field(.tokenEndpointAuthMethod) {
                guard Self.registeredSecretMethods.contains(tokenEndpointAuthMethod) else {
                    throw AuthError.notConfigured("it is not one of \(Self.registeredSecretMethods.joined(separator: ", "))")
                }
                guard case .oidc = providerID.kind, savedForResources,
                    clientSecretEnv == nil, clientSecretFile == nil, clientCertificateFile == nil
                else {
                    throw AuthError.notConfigured(
                        "it applies only to a client `login URL` registered (with no client secret or key of its own)")
                }
            }
        }
        if defaultEndpoints != nil {
            try field(.defaultEndpoints) {
                guard case .oidc = providerID.kind, savedForResources, metadataURL == nil,
                    let issuer, DiscoveryDocument.defaultEndpoints(at: issuer) != nil
                else {
                    throw AuthError.notConfigured(
                        "it applies only to a client `login URL` saved for a server without metadata, whose issuer is an origin")
                }
            }
        }
        if let clientRefusedAt {
            try field(.clientRefusedAt) {
                guard case .oidc = providerID.kind, registeredDynamically, (0...99_999_999_999).contains(clientRefusedAt) else {
                    throw AuthError.notConfigured("it applies only to a client `login URL` registered, as seconds since 1970")
                }
            }
        }
        if let clientSecretExpiresAt {
            try field(.clientSecretExpiresAt) {
                guard tokenEndpointAuthMethod != nil, (0...99_999_999_999).contains(clientSecretExpiresAt) else {
                    throw AuthError.notConfigured("it applies only to a registered secret, as seconds since 1970")
                }
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
        for (value, option, key) in [(dpop, Message.Input.dpop, CodingKeys.dpop), (par, .par, .par)] {
            try field(key) {
                if let value, Use(rawValue: value) == nil {
                    throw AuthError.invalidArgument(
                        "\(input: option) must be auto (the default), always or never, not '\(Sanitize.text(value, limit: 20))'")
                }
            }
        }
        try field(.profile) {
            if let profile, profile != "fapi2" {
                throw AuthError.invalidArgument(
                    "\(input: .profile) must be fapi2 (the only profile), not '\(Sanitize.text(profile, limit: 20))'")
            }
            if isFAPI2 {
                if dpop.map({ $0 != Use.always.rawValue }) == true || par.map({ $0 != Use.always.rawValue }) == true {
                    throw AuthError.invalidArgument(
                        "\(input: .profile) fapi2 requires DPoP and pushed authorization requests: \(input: .dpop) and \(input: .par) can only be always with it (or left out)"
                    )
                }
                if flow == "implicit" {
                    throw AuthError.invalidArgument("\(input: .profile) fapi2 signs in with the code flow; remove \(input: .flow) implicit")
                }
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
            // The suggested command keeps the issuer given, so that it works as written.
            let arguments: [Message.Argument] = ["\(id)"] + (issuer.map { [.input(.issuer, $0)] } ?? []) + [.input(.clientID, "CLIENT_ID")]
            throw AuthError.invalidArgument(
                "\(id) needs \(input: .clientID): the client id the provider gave your app (\(command: .providersAdd, arguments: arguments))"
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

    /// A base URL option (`--authority-host`, `--graph-host`, Apple's `--issuer`, docs/authctl.1):
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
