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
    let lock = NSLock()
    var behaviourValue = Behaviour()
    var codes: [String: Grant] = [:]
    var usedCodes: Set<String> = []
    var refreshTokens: [String: Grant] = [:]
    var accessTokens: [String: (account: Account, resource: String, scopes: [String])] = [:]
    var counters: [String: Int] = [:]
    var authorizationParameters: [String: String] = [:]
    var tokenRequests: [[String: String]] = []
    var secrets: [String] = []
    var deviceCodes: [String: (userCode: String, approved: Bool, scopes: [String], tenant: String)] = [:]
    var seenJTIs: Set<String> = []

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

    func bump(_ name: String) { lock.withLock { counters[name, default: 0] += 1 } }
    func remember(_ values: String?...) { lock.withLock { secrets += values.compactMap { $0 } } }

    /// The issuer of tokens from a tenant.
    public func issuer(tenantID: String) -> String { "\(host)/\(tenantID)/v2.0" }

    // MARK: Routing

    func handle(_ original: ReceivedRequest) -> HTTPResponse {
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
    func withTenant(_ segment: String, _ answer: (String) -> HTTPResponse) -> HTTPResponse {
        let lower = segment.lowercased()
        if ["common", "organizations", "consumers"].contains(lower) { return answer(lower) }
        if let id = Self.domains[lower] ?? (Self.knownTenants.contains(lower) ? lower : nil) { return answer(id) }
        return aadstsError(
            AADSTSError(
                "invalid_tenant", 90002,
                "Tenant '\(segment)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud."))
    }

    func discovery(tenant segment: String, resolved tenant: String) -> HTTPResponse {
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
}
