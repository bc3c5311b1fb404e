/// The issuer and tenant rules of Microsoft Entra ID (docs/microsoft.md), as pure functions.
///
/// The issuer comes from the tenant's discovery document, not from the configuration:
/// `<authority-host>/{tenantid}/v2.0` (a template) for `common` and `organizations` —
/// and, as docs/microsoft.md allows, for `consumers` — or `<authority-host>/<tenant id>/v2.0` for a
/// GUID or domain tenant (the real service also names the personal-account tenant's id
/// for `consumers`). An ID token's `iss` must equal the discovery issuer with its tenant
/// segment replaced by the token's `tid`; the tenant rules then decide whether that tenant
/// was acceptable, and refuse with `tenant-id-mismatch`.
public struct MicrosoftIssuer: Sendable, Equatable {
    /// `https://login.microsoftonline.com` (no trailing slash).
    public var authorityHost: String
    public var tenant: MicrosoftTenant

    public init(authorityHost: String, tenant: MicrosoftTenant) {
        self.authorityHost = authorityHost
        self.tenant = tenant
    }

    static let template = "{tenantid}"
    var prefix: String { authorityHost + "/" }
    static let suffix = "/v2.0"

    /// The tenant segment of an issuer `<authority-host>/<segment>/v2.0`, or nil when the
    /// issuer does not have that shape.
    func tenantSegment(of issuer: String) -> String? {
        guard issuer.hasPrefix(prefix), issuer.hasSuffix(Self.suffix), issuer.count > prefix.count + Self.suffix.count else {
            return nil
        }
        let segment = String(issuer.dropFirst(prefix.count).dropLast(Self.suffix.count))
        return segment.contains("/") ? nil : segment
    }

    /// The issuer of tokens from tenant `tid`.
    func issuer(ofTenant tid: String) -> String { prefix + tid + Self.suffix }

    /// Checks the `issuer` of the tenant's discovery document (`provider-not-configured`
    /// when it cannot be Microsoft's for this tenant).
    public func checkDiscoveryIssuer(_ issuer: String) throws {
        let segment = tenantSegment(of: issuer)
        let acceptable: Bool =
            switch (tenant, segment) {
            case (_, nil): false
            case (.common, let s?), (.organizations, let s?): s == Self.template
            case (.consumers, let s?): s == Self.template || s == MicrosoftTenant.personalAccountsTenantID
            case (.id(let id), let s?): s.lowercased() == id
            case (.domain, let s?): MicrosoftTenant.isGUID(s.lowercased())
            }
        guard acceptable else {
            throw AuthError.notConfigured(
                "the Microsoft discovery document for tenant '\(tenant)' names the issuer '\(Sanitize.text(issuer))', which is not \(prefix)\(tenantExpectation)\(Self.suffix). Check \(input: .authorityHost) and \(input: .tenant) with: \(command: .providersShow, "microsoft.com")"
            )
        }
    }

    private var tenantExpectation: String {
        switch tenant {
        case .common, .organizations: Self.template
        case .consumers: "{tenantid} or \(MicrosoftTenant.personalAccountsTenantID)"
        case .id(let id): id
        case .domain: "<the tenant id>"
        }
    }

    /// The exact `iss` an ID token with this `tid` must carry: the discovery issuer with its
    /// tenant segment (template or id) replaced by `tid`. Nil when `tid` is not a GUID: the
    /// caller then expects the discovery issuer itself, which no real token matches.
    public func expectedIssuer(discoveryIssuer: String, tid: String?) -> String? {
        guard let tid, MicrosoftTenant.isGUID(tid), tenantSegment(of: discoveryIssuer) != nil else { return nil }
        return issuer(ofTenant: tid)
    }

    /// The tenant rules of docs/microsoft.md, on a validated token's `tid`: a token from a tenant other
    /// than the one asked, the personal-account tenant under `organizations`, and any other
    /// tenant under `consumers` are refused with `tenant-id-mismatch`.
    public func checkTenant(tid: String, discoveryIssuer: String) throws {
        let personal = MicrosoftTenant.personalAccountsTenantID
        let tid = tid.lowercased()
        switch tenant {
        case .common:
            return
        case .organizations:
            guard tid != personal else {
                throw Self.mismatch(
                    tid: tid, asked: tenant,
                    "a personal Microsoft account signed in, but the tenant 'organizations' accepts work or school accounts only. Sign in with a work or school account, or use \(input: .tenant) common or \(input: .tenant) consumers"
                )
            }
        case .consumers:
            guard tid == personal else {
                throw Self.mismatch(
                    tid: tid, asked: tenant,
                    "a work or school account (tenant \(tid)) signed in, but the tenant 'consumers' accepts personal Microsoft accounts only. Sign in with a personal account, or use \(input: .tenant) common or \(input: .tenant) organizations"
                )
            }
        case .id(let id):
            guard tid == id else {
                throw Self.mismatch(
                    tid: tid, asked: tenant,
                    "the account signed in belongs to tenant \(tid), not to the tenant asked (\(id)). Sign in with an account of \(id), or use \(input: .tenant) common"
                )
            }
        case .domain(let domain):
            let resolved = tenantSegment(of: discoveryIssuer)?.lowercased()
            guard tid == resolved else {
                throw Self.mismatch(
                    tid: tid, asked: tenant,
                    "the account signed in belongs to tenant \(tid), not to \(domain)\(resolved.map { " (\($0))" } ?? ""). Sign in with an account of \(domain), or use \(input: .tenant) common"
                )
            }
        }
    }

    static func mismatch(tid: String, asked: MicrosoftTenant, _ message: Message) -> AuthError {
        AuthError.tenantIDMismatch(
            message + "; nothing was stored",
            details: ["tenantId": .string(tid), "requestedTenant": .string(asked.description)])
    }
}
