/// Microsoft Entra ID, the Microsoft identity platform v2 (`microsoft.com`, docs/microsoft.md).
///
/// Endpoints come from the tenant's discovery document at
/// `<authority-host>/<tenant>/v2.0/.well-known/openid-configuration`. The identity key is
/// the token's tenant issuer plus `oid` (never `sub`, which differs per application).
public struct MicrosoftProvider: IdentityProvider {
    public static let defaultAuthorityHost = "https://login.microsoftonline.com"
    public static let defaultGraphHost = "https://graph.microsoft.com"

    public let id: ProviderID
    public let config: ProviderConfig
    public let tenant: MicrosoftTenant
    /// Without a trailing slash.
    public let authorityHost: String
    /// Without a trailing slash.
    public let graphHost: String

    public init(id: ProviderID, config: ProviderConfig) throws {
        self.id = id
        self.config = config
        tenant = try MicrosoftTenant(parsing: config.tenant ?? "common")
        authorityHost = Self.trimmed(config.authorityHost ?? Self.defaultAuthorityHost)
        graphHost = Self.trimmed(config.graphHost ?? Self.defaultGraphHost)
        discoveryURL = try ProviderURL.make(
            "\(authorityHost)/\(tenant)/v2.0", "/.well-known/openid-configuration", provider: id, option: .authorityHost)
        photoURL = try ProviderURL.make(graphHost, "/v1.0/me/photo/$value", provider: id, option: .graphHost)
    }

    /// Graph `/v1.0/me/photo/$value`.
    let photoURL: URL

    static func trimmed(_ host: String) -> String { host.hasSuffix("/") ? String(host.dropLast()) : host }

    var issuerRule: MicrosoftIssuer { MicrosoftIssuer(authorityHost: authorityHost, tenant: tenant) }

    /// The authority: `<authority-host>/<tenant>/v2.0`.
    public var issuer: String { "\(authorityHost)/\(tenant)/v2.0" }

    public let discoveryURL: URL

    /// `offline_access` for a refresh token; `profile` brings `oid`, `tid` and the name.
    public var defaultScopes: [String] { ["openid", "profile", "email", "offline_access"] }

    /// `http://localhost:<port>`, what Entra app registrations list for desktop apps
    /// (the port is ignored when Microsoft matches loopback redirect URIs; the listener
    /// still binds the loopback address). See docs/microsoft.md.
    public func defaultRedirectURI(host: String, port: UInt16) throws -> URL {
        guard let url = URL(string: "http://localhost:\(port)") else {
            throw AuthError.internalError("could not make the redirect URI http://localhost:\(port)")
        }
        return url
    }

    /// From `oid`, not `sub` (per application). A personal account's `oid` is
    /// `00000000-0000-0000-XXXX-XXXXXXXXXXXX`: its federated id is the last 16 hex digits,
    /// without dashes (the account's Microsoft account id). A work account's is `oid` as is.
    public func federatedID(from claims: IDTokenClaims) throws -> String {
        guard let oid = claims.raw["oid"]?.stringValue?.lowercased(), MicrosoftTenant.isGUID(oid) else {
            throw AuthError.invalidCredential(
                "the Microsoft ID token has no object id (oid), so the account cannot be identified. Keep the 'profile' scope (a default) and sign in again"
            )
        }
        let personalPrefix = "00000000-0000-0000-"
        if oid.hasPrefix(personalPrefix) {
            return oid.dropFirst(personalPrefix.count).replacingEvery("-", with: "")
        }
        return oid
    }

    /// Microsoft does not verify the `email` claim (it is an editable attribute of the
    /// account), so it never counts as verified; there is no photo URL.
    public func profile(from claims: IDTokenClaims) -> Profile {
        Profile(email: claims.email, emailVerified: false, displayName: claims.name, photoURL: nil)
    }

    public func checkDiscoveryIssuer(_ documentIssuer: String) throws {
        try issuerRule.checkDiscoveryIssuer(documentIssuer)
    }

    public func expectedIDTokenIssuer(discoveryIssuer: String, claims: IDTokenClaims) -> String {
        issuerRule.expectedIssuer(discoveryIssuer: discoveryIssuer, tid: claims.raw["tid"]?.stringValue?.lowercased())
            ?? discoveryIssuer
    }

    public func checkAccount(_ claims: IDTokenClaims, discoveryIssuer: String) throws {
        guard let tid = claims.raw["tid"]?.stringValue, MicrosoftTenant.isGUID(tid.lowercased()) else {
            throw AuthError.invalidCredential("the Microsoft ID token has no tenant id (tid). Sign in again")
        }
        try issuerRule.checkTenant(tid: tid, discoveryIssuer: discoveryIssuer)
    }

    /// Refreshes at the authority of the identity's tenant (its issuer names it), so that a
    /// sign-in with `--tenant` keeps its tenant and its rule.
    public func provider(forSessionOf identity: LinkedIdentity) -> any IdentityProvider {
        guard let tid = issuerRule.tenantSegment(of: identity.issuer)?.lowercased(), MicrosoftTenant.isGUID(tid) else { return self }
        var config = self.config
        config.tenant = tid
        return (try? MicrosoftProvider(id: id, config: config)) ?? self
    }

    public func enrichedProfile(_ profile: Profile, tokens: TokenSet, transport: any HTTPTransport) async -> (Profile, [ProfileWarning]) {
        guard scopes(tokens.scopes, cover: ["User.Read"]), let accessToken = tokens.accessToken else { return (profile, []) }
        return await MicrosoftGraph(host: graphHost).profile(
            completing: profile, accessToken: accessToken, binding: tokens.egress ?? .legacy(issuer: issuer), transport: transport)
    }

    /// Graph `/v1.0/me/photo/$value` (docs/microsoft.md: fetched on demand, no photo URL stored).
    public var profilePhoto: ProtectedResource? {
        ProtectedResource(url: photoURL, scopes: [graphHost + "/User.Read"])
    }

    /// Graph scopes may be written with or without the Graph host (`User.Read` =
    /// `https://graph.microsoft.com/User.Read`); scopes compare without case.
    public func scopes(_ granted: [String], cover needed: [String]) -> Bool {
        let prefix = graphHost.lowercased() + "/"
        func normal(_ scope: String) -> String {
            let lower = scope.lowercased()
            return lower.hasPrefix(prefix) ? String(lower.dropFirst(prefix.count)) : lower
        }
        return Set(needed.map(normal)).isSubset(of: Set(granted.map(normal)))
    }

    /// Microsoft requires `scope` on a refresh (AADSTS900144 without it) and returns a new
    /// refresh token only when `offline_access` is asked again (it never lists it as granted).
    /// The session's refresh asks its granted scopes again (with `openid`, for a new ID token).
    public func refreshScopes(session: TokenSet, asked: [String]) -> [String]? {
        let base = asked.isEmpty ? ["openid"] + session.scopes : asked
        var scopes: [String] = []
        for scope in base + ["offline_access"] where !scopes.contains(scope) { scopes.append(scope) }
        return scopes
    }

    public func nextStep(for error: OAuthErrorResponse) -> Message? {
        MicrosoftErrorCodes.nextStep(for: error)
    }
}

/// Microsoft through a broker (Firebase, docs/firebase.md).
extension MicrosoftProvider {
    /// `--tenant` is the `tenant` custom parameter of Firebase's authorization request.
    public static func brokeredParameters(_ parameters: [(String, String)], tenant: String?) throws -> [(String, String)] {
        guard let tenant else { return parameters }
        _ = try MicrosoftTenant(parsing: tenant)
        return parameters.filter { $0.0 != "tenant" } + [("tenant", tenant)]
    }

    /// Firebase takes a Microsoft sign-in only through its own code exchange.
    public static func checkBrokeredIDToken() throws {
        throw AuthError.invalidArgument(
            "Firebase accepts a Microsoft sign-in only through its own code exchange, not an ID token obtained elsewhere. Sign in through the browser: \(command: .login, "microsoft.com")"
        )
    }
}
