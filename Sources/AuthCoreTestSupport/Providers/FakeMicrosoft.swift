import AuthCore
import Crypto
import Foundation

/// The Microsoft identity platform v2 and the part of Microsoft Graph authctl uses, in the
/// test process on 127.0.0.1, written from Microsoft's documentation:
///
/// - `/<tenant>/v2.0/.well-known/openid-configuration` for `common`, `organizations`,
///   `consumers`, a tenant id or a tenant domain (resolved to its id). The issuer is
///   `<host>/{tenantid}/v2.0` (a literal template) for `common` and `organizations`, the
///   personal-account tenant's for `consumers` (as the real service answers; `Behaviour.
///   consumersIssuerIsTemplate` gives the template), the tenant's for a specific tenant.
///   An unknown tenant is a 400 with AADSTS90002.
/// - `/<tenant>/oauth2/v2.0/{authorize,token,devicecode}`, `/<tenant>/discovery/v2.0/keys`.
///   Loopback redirect URIs match registered ones with any port; an account outside the
///   tenant asked is refused at `/authorize` (AADSTS50020) unless `enforceTenantRules` is off
///   (a provider, or a token substitution, that the client must catch itself).
/// - ID tokens with `tid`, `oid`, a per-application `sub`, `preferred_username`, `name`,
///   `email` only when the account has one; `ver` 2.0.
/// - Token endpoint errors in Microsoft's shape (`error_codes`, trace and correlation ids);
///   `scope` required on refresh (AADSTS900144); a refresh token only when `offline_access`
///   is asked; rotating refresh tokens; scopes of one resource per token (AADSTS28000),
///   Graph when none is named; `offline_access` never listed as granted.
/// - Graph `/v1.0/me` and `/v1.0/me/photo/$value` needing a Graph token with `User.Read`.
public final class FakeMicrosoft: @unchecked Sendable {
    /// A user account of the fake directory.
    public struct Account: Sendable, Equatable {
        public var tenantID: String
        public var objectID: String
        public var name: String?
        public var preferredUsername: String
        /// The `email` claim (many work accounts have none).
        public var email: String?
        /// Graph's `mail`.
        public var mail: String?
        public var photo: Data?

        public init(
            tenantID: String, objectID: String, name: String?, preferredUsername: String, email: String?, mail: String?, photo: Data?
        ) {
            self.tenantID = tenantID
            self.objectID = objectID
            self.name = name
            self.preferredUsername = preferredUsername
            self.email = email
            self.mail = mail
            self.photo = photo
        }

        /// A work account of Contoso, without an `email` claim, with a photo.
        public static let work = Account(
            tenantID: FakeMicrosoft.contosoTenantID, objectID: "a1b2c3d4-0000-4000-8000-1234567890ab", name: "Megan Bowen",
            preferredUsername: "meganb@contoso.onmicrosoft.com", email: nil, mail: "megan.bowen@contoso.com",
            photo: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]))
        /// A work account of Fabrikam, another tenant.
        public static let otherTenant = Account(
            tenantID: FakeMicrosoft.fabrikamTenantID, objectID: "f0f0f0f0-1111-4222-8333-444455556666", name: "Alex Wilber",
            preferredUsername: "alexw@fabrikam.onmicrosoft.com", email: "alexw@fabrikam.com", mail: "alexw@fabrikam.com", photo: nil)
        /// A personal Microsoft account (outlook.com): `oid` of the `00000000-0000-0000-…` form.
        public static let personal = Account(
            tenantID: MicrosoftTenant.personalAccountsTenantID, objectID: "00000000-0000-0000-4b2e-abcdef012345", name: "Ada Lovelace",
            preferredUsername: "ada@outlook.com", email: "ada@outlook.com", mail: nil, photo: nil)
    }

    /// An AADSTS error answered by the token endpoint.
    public struct AADSTSError: Error, Sendable {
        public var error: String
        public var code: Int
        public var description: String

        public init(_ error: String, _ code: Int, _ description: String) {
            self.error = error
            self.code = code
            self.description = description
        }

        public static let expiredGrant = AADSTSError(
            "invalid_grant", 70008,
            "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource."
        )
        public static let consentRequired = AADSTSError(
            "invalid_grant", 65001,
            "The user or administrator has not consented to use the application with ID '{client}' named 'authctl test'. Send an interactive authorization request for this user and resource."
        )
    }

    public struct Behaviour: Sendable {
        /// Who signs in at `/authorize`.
        public var account: Account = .work
        /// The real service refuses at `/authorize` an account the tenant does not accept.
        public var enforceTenantRules = true
        public var consumersIssuerIsTemplate = false
        /// Registered redirect URIs (loopback ones match any port).
        public var redirectURIs = ["http://localhost"]
        /// Graph permissions the app is configured with (granted with the sign-in).
        public var graphScopes = ["User.Read"]
        /// Other resources the app may ask tokens for, with their scopes.
        public var resources: [String: [String]] = ["api://authctl-test-api": ["access_as_user"]]
        public var accessTokenLifetime: TimeInterval = 3600
        /// The next token-endpoint answers (code or refresh) fail with this.
        public var tokenError: AADSTSError?
        /// A used refresh token stops working (the real service keeps it valid for its lifetime).
        public var revokeUsedRefreshTokens = true
        /// Overrides the `iss` / `tid` claims of ID tokens (a hostile or broken provider).
        public var idTokenIssuer: String?
        public var idTokenTenantID: String?
        public var signWithUnpublishedKey = false
        public var discoveryIssuer: String?
        /// Appended to every access token issued (a provider handing out a token with a
        /// line break, to inject a header into the next request that carries it).
        public var accessTokenSuffix = ""
        /// Apps that may use the client-credentials grant (FakeWorkloads.swift), in every tenant.
        public var workloads: [WorkloadRegistration] = []

        public init() {}
    }

    public static let contosoTenantID = "8eaef023-2b34-4da1-9baa-8bc8c9d6a490"
    public static let fabrikamTenantID = "2d4d11a2-f814-46a7-890a-274a72a7309e"
    /// Verified domains of the fake tenants.
    public static let domains = [
        "contoso.onmicrosoft.com": contosoTenantID, "contoso.com": contosoTenantID, "fabrikam.onmicrosoft.com": fabrikamTenantID,
    ]
    static let knownTenants: Set<String> = [contosoTenantID, fabrikamTenantID, MicrosoftTenant.personalAccountsTenantID]
    static let oidcScopes: Set<String> = ["openid", "profile", "email", "offline_access"]

    public let clientID = "6731de76-14a6-49ae-97bc-6eba6914391e"
    public private(set) var server: LoopbackHTTPServer!
    public let signer: TestTokenSigner
    private let lock = NSLock()
    private var behaviourValue = Behaviour()
    private var codes: [String: Grant] = [:]
    private var usedCodes: Set<String> = []
    private var refreshTokens: [String: Grant] = [:]
    private var accessTokens: [String: (account: Account, resource: String, scopes: [String])] = [:]
    private var counters: [String: Int] = [:]
    private var authorizationParameters: [String: String] = [:]
    private var tokenRequests: [[String: String]] = []
    private var secrets: [String] = []
    private var deviceCodes: [String: (userCode: String, approved: Bool, scopes: [String], tenant: String)] = [:]

    /// What a code or refresh token stands for.
    struct Grant {
        var account: Account
        var clientID: String
        var redirectURI: String
        var challenge: String?
        var nonce: String?
        /// Every scope consented in this session (OIDC scopes included).
        var consented: [String]
        var requested: [String]
    }

    /// The paths the authority and Graph are served under (`/gateway/login`; empty: at the
    /// root), as behind a gateway or AD FS (`https://adfs.contoso.com/adfs`): requests
    /// elsewhere get a 404, so a client that drops the path fails.
    public let authorityPath: String
    public let graphPath: String

    public init(authorityPath: String = "", graphPath: String = "") throws {
        self.authorityPath = authorityPath
        self.graphPath = graphPath
        signer = try TestTokenSigner()
        server = try LoopbackHTTPServer { [weak self] request in
            // A request that arrives while the fake goes (a test ended with a connection open) gets a 503, not a crash.
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server.stop() }

    /// The authority host (`--authority-host`), with its path.
    public var host: String { server.baseURL + authorityPath }
    /// The Graph host (`--graph-host`), with its path; the same as `host` without paths.
    public var graphHost: String { server.baseURL + graphPath }

    public var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    public func update(_ change: (inout Behaviour) -> Void) { lock.withLock { change(&behaviourValue) } }

    /// Calls per endpoint: discovery, keys, authorize, token, refresh, devicecode, me, photo.
    public func count(_ name: String) -> Int { lock.withLock { counters[name] ?? 0 } }
    public var lastAuthorizationRequest: [String: String] { lock.withLock { authorizationParameters } }
    /// The forms of every token request, in order.
    public var tokenRequestForms: [[String: String]] { lock.withLock { tokenRequests } }
    /// Every code, verifier, state, nonce and token seen or issued, to prove none leaks.
    public var issuedSecrets: [String] { lock.withLock { secrets } }
    /// The refresh tokens that still work.
    public var liveRefreshTokens: Set<String> { lock.withLock { Set(refreshTokens.keys) } }

    private func bump(_ name: String) { lock.withLock { counters[name, default: 0] += 1 } }
    private func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    /// The issuer of tokens from a tenant.
    public func issuer(tenantID: String) -> String { "\(host)/\(tenantID)/v2.0" }

    // MARK: Routing

    private func handle(_ original: ReceivedRequest) -> HTTPResponse {
        // Graph under its path, the authority under its own; nothing anywhere else.
        var request = original
        let isGraph = original.path.hasPrefix(graphPath + "/v1.0/")
        guard isGraph || original.path.hasPrefix(authorityPath + "/") else {
            return HTTPResponse(status: 404, body: Data("not found".utf8))
        }
        request.target = String(original.target.dropFirst(isGraph ? graphPath.count : authorityPath.count))
        let segments = request.path.split(separator: "/").map(String.init)
        let route = segments.count == 4 ? segments[1...].joined(separator: "/") : ""
        let tenant = segments.first ?? ""
        switch (request.method, segments.joined(separator: "/"), route) {
        case ("GET", "v1.0/me", _) where isGraph:
            bump("me")
            return graphMe(request)
        case ("GET", "v1.0/me/photo/$value", _) where isGraph:
            bump("photo")
            return graphPhoto(request)
        case ("GET", _, "v2.0/.well-known/openid-configuration"):
            bump("discovery")
            return withTenant(tenant) { discovery(tenant: tenant, resolved: $0) }
        case ("GET", _, "discovery/v2.0/keys"):
            bump("keys")
            return withTenant(tenant) { _ in FakeHTTP.json(signer.jwks) }
        case ("GET", _, "oauth2/v2.0/authorize"):
            bump("authorize")
            return withTenant(tenant) { authorize(request, tenant: $0) }
        case ("POST", _, "oauth2/v2.0/token"):
            bump("token")
            return withTenant(tenant) { token(request, tenant: $0) }
        case ("POST", _, "oauth2/v2.0/devicecode"):
            bump("devicecode")
            return withTenant(tenant) { deviceCode(request, tenant: $0) }
        default:
            return HTTPResponse(status: 404, body: Data("not found".utf8))
        }
    }

    /// `common`, `organizations`, `consumers`, or a known tenant's id (domains resolved).
    private func withTenant(_ segment: String, _ answer: (String) -> HTTPResponse) -> HTTPResponse {
        let lower = segment.lowercased()
        if ["common", "organizations", "consumers"].contains(lower) { return answer(lower) }
        if let id = Self.domains[lower] ?? (Self.knownTenants.contains(lower) ? lower : nil) { return answer(id) }
        return aadstsError(
            AADSTSError(
                "invalid_tenant", 90002,
                "Tenant '\(segment)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud."))
    }

    private func discovery(tenant segment: String, resolved tenant: String) -> HTTPResponse {
        let behaviour = self.behaviour
        let issuerTenant =
            switch tenant {
            case "common", "organizations": "{tenantid}"
            case "consumers": behaviour.consumersIssuerIsTemplate ? "{tenantid}" : MicrosoftTenant.personalAccountsTenantID
            default: tenant
            }
        // Endpoints name the tenant as asked for the special ones, by id for the others.
        let path = "\(host)/\(tenant)"
        return FakeHTTP.json(
            .object([
                "issuer": .string(behaviour.discoveryIssuer ?? issuer(tenantID: issuerTenant)),
                "authorization_endpoint": .string("\(path)/oauth2/v2.0/authorize"),
                "token_endpoint": .string("\(path)/oauth2/v2.0/token"),
                "device_authorization_endpoint": .string("\(path)/oauth2/v2.0/devicecode"),
                "end_session_endpoint": .string("\(path)/oauth2/v2.0/logout"),
                "jwks_uri": .string("\(path)/discovery/v2.0/keys"),
                "userinfo_endpoint": .string("\(host)/oidc/userinfo"),
                "response_modes_supported": .array(["query", "fragment", "form_post"].map(JSONValue.string)),
                "response_types_supported": .array(["code", "id_token", "code id_token", "id_token token"].map(JSONValue.string)),
                "scopes_supported": .array(["openid", "profile", "email", "offline_access"].map(JSONValue.string)),
                "subject_types_supported": .array([.string("pairwise")]),
                "id_token_signing_alg_values_supported": .array([.string("RS256")]),
                "token_endpoint_auth_methods_supported": .array(
                    ["client_secret_post", "private_key_jwt", "client_secret_basic"].map(JSONValue.string)),
                "claims_supported": .array(
                    [
                        "sub", "iss", "aud", "exp", "iat", "auth_time", "acr", "nonce", "preferred_username", "name", "tid", "ver", "oid",
                        "email",
                    ]
                    .map(JSONValue.string)),
                "request_uri_parameter_supported": .bool(false),
                "tenant_region_scope": tenant == "common" || tenant == "organizations" || tenant == "consumers" ? .null : .string("EU"),
                "cloud_instance_name": .string("microsoftonline.com"),
                "msgraph_host": .string("graph.microsoft.com"),
            ]))
    }

    // MARK: /authorize

    /// Microsoft's loopback rule: `http://localhost` and `http://127.0.0.1` match with any
    /// port; the path must match exactly; anything else must match exactly.
    static func redirectURIMatches(_ requested: String, registered: [String]) -> Bool {
        guard let url = URLComponents(string: requested) else { return false }
        return registered.contains { candidate in
            guard let registered = URLComponents(string: candidate) else { return false }
            if ["localhost", "127.0.0.1"].contains(registered.host ?? ""), registered.scheme == "http" {
                return url.scheme == "http" && url.host == registered.host && url.path == registered.path && url.query == nil
            }
            return requested == candidate
        }
    }

    private func authorize(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let behaviour = self.behaviour
        let parameters = FakeHTTP.form(Data((request.query ?? "").utf8))
        lock.withLock { authorizationParameters = parameters }
        remember(parameters["state"], parameters["nonce"], parameters["code_challenge"])
        guard parameters["client_id"] == clientID else {
            return errorPage(700016, "Application with identifier '\(parameters["client_id"] ?? "")' was not found in the directory.")
        }
        guard let redirectURI = parameters["redirect_uri"], Self.redirectURIMatches(redirectURI, registered: behaviour.redirectURIs) else {
            return errorPage(
                50011,
                "The redirect URI '\(parameters["redirect_uri"] ?? "")' specified in the request does not match the redirect URIs configured for the application '\(clientID)'."
            )
        }
        // Microsoft returns a redirect URI without a path with a trailing slash.
        let target = URLComponents(string: redirectURI)?.path.isEmpty == true ? redirectURI + "/" : redirectURI
        let state = parameters["state"].map { [("state", $0)] } ?? []
        func fail(_ error: String, _ code: Int, _ description: String) -> HTTPResponse {
            FakeHTTP.redirect(to: target, [("error", error), ("error_description", "AADSTS\(code): \(description)")] + state)
        }
        guard parameters["response_type"] == "code" else {
            return fail(
                "unsupported_response_type", 700054,
                "response_type '\(parameters["response_type"] ?? "")' is not enabled for the application.")
        }
        let requested = (parameters["scope"] ?? "").split(separator: " ").map(String.init)
        if case .failure(let error) = resource(of: requested, behaviour) { return fail(error.error, error.code, error.description) }
        let account = behaviour.account
        if behaviour.enforceTenantRules, let refusal = Self.tenantRefusal(account: account, tenant: tenant) {
            return fail("invalid_request", 50020, refusal)
        }
        let code = "M.C5" + UUID().uuidString
        lock.withLock {
            codes[code] = Grant(
                account: account, clientID: clientID, redirectURI: redirectURI, challenge: parameters["code_challenge"],
                nonce: parameters["nonce"], consented: requested + behaviour.graphScopes, requested: requested)
        }
        remember(code)
        return FakeHTTP.redirect(to: target, [("code", code)] + state + [("session_state", UUID().uuidString.lowercased())])
    }

    /// Why the real service would not let this account sign in under this tenant path.
    static func tenantRefusal(account: Account, tenant: String) -> String? {
        let personal = account.tenantID == MicrosoftTenant.personalAccountsTenantID
        switch tenant {
        case "common": return nil
        case "organizations" where personal, "consumers" where !personal:
            return
                "User account '\(account.preferredUsername)' from identity provider '\(personal ? "live.com" : "https://sts.windows.net/\(account.tenantID)/")' does not exist in tenant '\(tenant)'."
        case "organizations", "consumers": return nil
        default:
            return account.tenantID == tenant
                ? nil
                : "User account '\(account.preferredUsername)' from identity provider 'https://sts.windows.net/\(account.tenantID)/' does not exist in tenant '\(tenant)' and cannot access the application '\(FakeMicrosoft.contosoTenantID)' in that tenant."
        }
    }

    private func errorPage(_ code: Int, _ description: String) -> HTTPResponse {
        HTTPResponse(
            status: 400, headers: ["Content-Type": "text/html; charset=utf-8"],
            body: Data("<html><body><h1>Sign in</h1><p>AADSTS\(code): \(description)</p></body></html>".utf8))
    }

    // MARK: /token

    private func token(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let behaviour = self.behaviour
        let form = FakeHTTP.form(request.body)
        lock.withLock { tokenRequests.append(form) }
        remember(form["code_verifier"])
        if form["grant_type"] == "client_credentials" { return clientCredentials(request, form: form, tenant: tenant) }
        if form["client_secret"] != nil || request.headers["authorization"] != nil {
            return aadstsError(
                AADSTSError(
                    "invalid_client", 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented."))
        }
        guard form["client_id"] == clientID else {
            return aadstsError(
                AADSTSError(
                    "unauthorized_client", 700016,
                    "Application with identifier '\(form["client_id"] ?? "")' was not found in the directory '\(tenant)'."))
        }
        if let error = behaviour.tokenError { return aadstsError(error) }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = lock.withLock({ codes.removeValue(forKey: code) }) else {
                let used = lock.withLock { usedCodes.contains(form["code"] ?? "") }
                return aadstsError(
                    used
                        ? AADSTSError(
                            "invalid_grant", 54005,
                            "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token."
                        )
                        : AADSTSError("invalid_grant", 9002313, "Invalid request. Request is malformed or invalid."))
            }
            lock.withLock { _ = usedCodes.insert(code) }
            guard form["redirect_uri"] == grant.redirectURI else {
                return aadstsError(
                    AADSTSError(
                        "invalid_grant", 50011,
                        "The redirect URI '\(form["redirect_uri"] ?? "")' specified in the request does not match the redirect URI used to get the authorization code."
                    ))
            }
            if let challenge = grant.challenge, !FakeHTTP.pkceMatches(verifier: form["code_verifier"], challenge: challenge) {
                return aadstsError(
                    AADSTSError(
                        "invalid_grant", 501481,
                        "The Code_Verifier does not match the code_challenge supplied in the authorization request."))
            }
            return issueTokens(grant, requested: grant.requested, includeNonce: true, behaviour)
        case "refresh_token":
            bump("refresh")
            guard let scope = form["scope"], !scope.isEmpty else {
                return aadstsError(
                    AADSTSError("invalid_request", 900144, "The request body must contain the following parameter: 'scope'."))
            }
            guard let token = form["refresh_token"], let grant = lock.withLock({ refreshTokens[token] }) else {
                return aadstsError(AADSTSError.expiredGrant)
            }
            if behaviour.revokeUsedRefreshTokens { lock.withLock { _ = refreshTokens.removeValue(forKey: token) } }
            let requested = scope.split(separator: " ").map(String.init)
            // A resource scope never consented needs an interactive consent first.
            if case .success(let (resource, names)) = resource(of: requested, behaviour),
                !names.allSatisfy({ isConsented($0, of: resource, in: grant, behaviour) })
            {
                return aadstsError(AADSTSError.consentRequired)
            }
            return issueTokens(grant, requested: requested, includeNonce: false, behaviour)
        case "urn:ietf:params:oauth:grant-type:device_code":
            return deviceCodeToken(form, behaviour)
        default:
            return aadstsError(
                AADSTSError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(form["grant_type"] ?? "")'."))
        }
    }

    /// Consented: `.default`, a permission the app is configured with (admin consent), or a
    /// scope consented at the sign-in.
    private func isConsented(_ name: String, of resource: String, in grant: Grant, _ behaviour: Behaviour) -> Bool {
        if name == ".default" { return true }
        if resource == graphHost { return behaviour.graphScopes.contains(name) || grant.consented.contains(name) }
        return behaviour.resources[resource]?.contains(name) == true || grant.consented.contains("\(resource)/\(name)")
    }

    /// The one resource the scopes are for (Graph when they name none) and its scopes.
    /// Graph scopes are `User.Read` or `<graph host>/User.Read`; others `api://app/scope`.
    func resource(of scopes: [String], _ behaviour: Behaviour) -> Result<(String, [String]), AADSTSError> {
        let resourceScopes = scopes.filter { !Self.oidcScopes.contains($0) }
        var resources: Set<String> = []
        var names: [String] = []
        for scope in resourceScopes {
            if let slash = scope.range(of: "/", options: .backwards), scope.contains("://") {
                resources.insert(String(scope[..<slash.lowerBound]))
                names.append(String(scope[slash.upperBound...]))
            } else {
                resources.insert(graphHost)
                names.append(scope)
            }
        }
        guard resources.count <= 1 else {
            return .failure(
                AADSTSError(
                    "invalid_scope", 28000,
                    "Provide value for the input parameter scope. The scopes requested are for several resources; one token is for one resource."
                ))
        }
        let resource = resources.first ?? graphHost
        if resource != graphHost, behaviour.resources[resource] == nil {
            return .failure(
                AADSTSError("invalid_resource", 500011, "The resource principal named \(resource) was not found in the tenant."))
        }
        return .success((resource, names))
    }

    private func issueTokens(_ grant: Grant, requested: [String], includeNonce: Bool, _ behaviour: Behaviour) -> HTTPResponse {
        guard case .success(let (resource, names)) = resource(of: requested, behaviour) else {
            return aadstsError(AADSTSError("invalid_scope", 70011, "The provided value for the input parameter 'scope' is not valid."))
        }
        var granted: [String]
        if resource == graphHost {
            let asked = names.filter { $0 != ".default" }
            granted = names.contains(".default") || asked.isEmpty ? behaviour.graphScopes + asked : asked
        } else {
            granted = names.contains(".default") ? behaviour.resources[resource] ?? [] : names
            granted = granted.map { "\(resource)/\($0)" }
        }
        var unique: [String] = []
        for scope in granted where !unique.contains(scope) { unique.append(scope) }
        let accessToken = "at-" + UUID().uuidString + behaviour.accessTokenSuffix
        lock.withLock { accessTokens[accessToken] = (grant.account, resource, unique) }
        let oidc = ["openid", "profile", "email"].filter { requested.contains($0) }
        var body: [String: JSONValue] = [
            "token_type": .string("Bearer"),
            "scope": .string((unique + oidc).joined(separator: " ")),
            "expires_in": .number(behaviour.accessTokenLifetime),
            "ext_expires_in": .number(behaviour.accessTokenLifetime),
            "access_token": .string(accessToken),
        ]
        if requested.contains("offline_access") {
            let refreshToken = "rt-" + UUID().uuidString
            var consented = grant
            consented.consented += requested
            lock.withLock { refreshTokens[refreshToken] = consented }
            body["refresh_token"] = .string(refreshToken)
        }
        if requested.contains("openid") {
            body["id_token"] = .string(idToken(for: grant.account, nonce: includeNonce ? grant.nonce : nil, behaviour))
        }
        remember(accessToken, body["refresh_token"]?.stringValue, body["id_token"]?.stringValue)
        return FakeHTTP.json(.object(body))
    }

    /// An ID token as Microsoft v2 issues it for this app.
    public func idToken(for account: Account, nonce: String?, _ behaviour: Behaviour) -> String {
        let now = Date().timeIntervalSince1970.rounded()
        // `sub` is pairwise: per application, never equal to `oid`.
        let sub = Base64URL.encode(SHA256.hash(data: Data("\(clientID):\(account.objectID)".utf8)))
        var claims: [String: JSONValue] = [
            "aud": .string(clientID),
            "iss": .string(behaviour.idTokenIssuer ?? issuer(tenantID: account.tenantID)),
            "iat": .number(now), "nbf": .number(now), "exp": .number(now + 3600),
            "aio": .string("Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY"),
            "oid": .string(account.objectID),
            "preferred_username": .string(account.preferredUsername),
            "rh": .string("0.ARoAv4j5cvGGr0GRqy180BHbR1s3Ucd"),
            "sid": .string(UUID().uuidString.lowercased()),
            "sub": .string(sub),
            "tid": .string(behaviour.idTokenTenantID ?? account.tenantID),
            "uti": .string(String(UUID().uuidString.prefix(22))),
            "ver": .string("2.0"),
        ]
        if let name = account.name { claims["name"] = .string(name) }
        if let email = account.email { claims["email"] = .string(email) }
        if let nonce { claims["nonce"] = .string(nonce) }
        return signer.sign(claims: .object(claims), unpublishedKey: behaviour.signWithUnpublishedKey)
    }

    /// The error body of Microsoft's token endpoint.
    private var seenJTIs: Set<String> = []

    /// The identity platform's client-credentials grant: a tenant of its own, the app's
    /// secret, certificate (`x5t#S256`) or federated credential, one resource's `.default`.
    private func clientCredentials(_ request: ReceivedRequest, form: [String: String], tenant: String) -> HTTPResponse {
        bump("client_credentials")
        remember(form["client_secret"], form["client_assertion"])
        guard !["common", "organizations", "consumers"].contains(tenant) else {
            return aadstsError(
                AADSTSError(
                    "invalid_request", 90009,
                    "Application is requesting a token for itself. This scenario is supported only if resource is specified using the GUID based App Identifier."
                ))
        }
        let behaviour = self.behaviour
        let result = lock.withLock {
            WorkloadVerifier.authenticate(
                form: form, authorization: request.headers["authorization"], registrations: behaviour.workloads,
                tokenEndpoint: "\(host)/\(tenant)/oauth2/v2.0/token", seenJTIs: &seenJTIs)
        }
        switch result {
        case .failure(let refusal):
            return aadstsError(AADSTSError(refusal.error, refusal.aadsts, refusal.description))
        case .success:
            guard let scope = form["scope"], scope.hasSuffix("/.default"), !scope.contains(" ") else {
                return aadstsError(
                    AADSTSError(
                        "invalid_scope", 1002012,
                        "The provided value for scope \(form["scope"] ?? "") is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI)."
                    ))
            }
            if let error = behaviour.tokenError { return aadstsError(error) }
            let (token, response) = WorkloadVerifier.tokenAnswer(scope: nil, lifetime: .number(behaviour.accessTokenLifetime))
            remember(token)
            return response
        }
    }

    private func aadstsError(_ error: AADSTSError) -> HTTPResponse {
        let trace = UUID().uuidString.lowercased(), correlation = UUID().uuidString.lowercased()
        let description =
            "AADSTS\(error.code): \(error.description.replacingOccurrences(of: "{client}", with: clientID))\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: 2026-11-22 15:04:05Z"
        return FakeHTTP.json(
            .object([
                "error": .string(error.error), "error_description": .string(description),
                "error_codes": .array([.number(Double(error.code))]),
                "timestamp": .string("2026-11-22 15:04:05Z"), "trace_id": .string(trace), "correlation_id": .string(correlation),
                "error_uri": .string("\(host)/error?code=\(error.code)"),
            ]), status: error.error == "invalid_client" ? 401 : 400)
    }

    // MARK: Device code (RFC 8628)

    private func deviceCode(_ request: ReceivedRequest, tenant: String) -> HTTPResponse {
        let form = FakeHTTP.form(request.body)
        guard form["client_id"] == clientID else {
            return aadstsError(AADSTSError("unauthorized_client", 700016, "Application with identifier was not found in the directory."))
        }
        let deviceCode = "DAQABAAEAAA" + UUID().uuidString
        let userCode = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(9)).uppercased()
        lock.withLock {
            deviceCodes[deviceCode] = (userCode, false, (form["scope"] ?? "").split(separator: " ").map(String.init), tenant)
        }
        remember(deviceCode)
        return FakeHTTP.json(
            .object([
                "device_code": .string(deviceCode), "user_code": .string(userCode),
                "verification_uri": .string("https://microsoft.com/devicelogin"), "expires_in": .number(900), "interval": .number(5),
                "message": .string(
                    "To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code \(userCode) to authenticate."
                ),
            ]))
    }

    /// What the person does at https://microsoft.com/devicelogin: approve a user code.
    public func approveDeviceCode(_ userCode: String) {
        lock.withLock {
            for (code, entry) in deviceCodes where entry.userCode == userCode { deviceCodes[code]?.approved = true }
        }
    }

    private func deviceCodeToken(_ form: [String: String], _ behaviour: Behaviour) -> HTTPResponse {
        guard let code = form["device_code"], let entry = lock.withLock({ deviceCodes[code] }) else {
            return aadstsError(AADSTSError("expired_token", 70019, "Verification code expired."))
        }
        guard entry.approved else {
            return aadstsError(
                AADSTSError("authorization_pending", 70016, "OAuth 2.0 device flow error. Authorization is pending. Continue polling."))
        }
        lock.withLock { _ = deviceCodes.removeValue(forKey: code) }
        let grant = Grant(
            account: behaviour.account, clientID: clientID, redirectURI: "", challenge: nil, nonce: nil,
            consented: entry.scopes + behaviour.graphScopes, requested: entry.scopes)
        return issueTokens(grant, requested: entry.scopes, includeNonce: false, behaviour)
    }

    // MARK: Graph

    /// The account of a Graph request's token, or the 401/403 Graph answers.
    private func graphCaller(_ request: ReceivedRequest, needs scope: String) -> (account: Account?, refusal: HTTPResponse?) {
        func graphError(_ status: Int, _ code: String, _ message: String) -> (Account?, HTTPResponse?) {
            (nil, FakeHTTP.json(.object(["error": .object(["code": .string(code), "message": .string(message)])]), status: status))
        }
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else {
            return graphError(401, "InvalidAuthenticationToken", "Access token is empty.")
        }
        guard let token = lock.withLock({ accessTokens[String(header.dropFirst(7))] }), token.resource == graphHost else {
            return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.")
        }
        guard token.scopes.contains(where: { $0.caseInsensitiveCompare(scope) == .orderedSame }) else {
            return graphError(403, "Authorization_RequestDenied", "Insufficient privileges to complete the operation.")
        }
        return (token.account, nil)
    }

    private func graphMe(_ request: ReceivedRequest) -> HTTPResponse {
        let caller = graphCaller(request, needs: "User.Read")
        guard let account = caller.account else { return caller.refusal! }
        let mail: JSONValue = account.mail.map(JSONValue.string) ?? .null
        return FakeHTTP.json(
            .object([
                "@odata.context": .string("\(graphHost)/v1.0/$metadata#users/$entity"), "businessPhones": .array([]),
                "displayName": account.name.map(JSONValue.string) ?? .null, "givenName": .null, "jobTitle": .null, "mail": mail,
                "mobilePhone": .null, "officeLocation": .null, "preferredLanguage": .null, "surname": .null,
                "userPrincipalName": .string(account.preferredUsername), "id": .string(account.objectID),
            ]))
    }

    private func graphPhoto(_ request: ReceivedRequest) -> HTTPResponse {
        let caller = graphCaller(request, needs: "User.Read")
        guard let account = caller.account else { return caller.refusal! }
        guard let photo = account.photo else {
            return FakeHTTP.json(
                .object([
                    "error": .object([
                        "code": .string("ImageNotFound"),
                        "message": .string(
                            "Exception of type 'Microsoft.Fast.Profile.Core.Exception.ImageNotFoundException' was thrown."),
                    ])
                ]), status: 404)
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: photo)
    }
}
