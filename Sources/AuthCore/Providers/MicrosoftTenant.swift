/// A Microsoft Entra ID tenant as `--tenant` names it (docs/microsoft.md): the authority path
/// segment of `<authority-host>/<tenant>/v2.0`, never a query parameter.
///
/// `common` (work, school and personal accounts), `organizations` (work and school only),
/// `consumers` (personal Microsoft accounts only), a tenant id (GUID), or a verified
/// domain of the tenant (`contoso.onmicrosoft.com`).
public enum MicrosoftTenant: Sendable, Hashable, CustomStringConvertible {
    case common
    case organizations
    case consumers
    /// A tenant id, lower case.
    case id(String)
    /// A domain of a tenant, lower case; discovery resolves it to the tenant id.
    case domain(String)

    /// The tenant of personal Microsoft accounts (outlook.com, live.com, …): the `tid` of
    /// every token issued to one.
    public static let personalAccountsTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// The accepted forms, for error messages.
    public static let acceptedForms =
        "common, organizations, consumers, a tenant id (a GUID such as 8eaef023-2b34-4da1-9baa-8bc8c9d6a490) or a tenant domain (contoso.onmicrosoft.com)"

    public init(parsing text: String) throws {
        let value = text.trimming(.whitespaces).lowercased()
        switch value {
        case "common": self = .common
        case "organizations": self = .organizations
        case "consumers": self = .consumers
        default:
            if Self.isGUID(value) {
                self = .id(value)
            } else if Self.isDomain(value) {
                self = .domain(value)
            } else {
                throw AuthError.invalidArgument(
                    "\(input: .tenant) '\(Sanitize.text(text, limit: 80))' is not a Microsoft tenant. Use \(Self.acceptedForms)")
            }
        }
    }

    /// The authority path segment.
    public var description: String {
        switch self {
        case .common: "common"
        case .organizations: "organizations"
        case .consumers: "consumers"
        case .id(let value), .domain(let value): value
        }
    }

    /// `8-4-4-4-12` hexadecimal digits.
    /// `--authority-host` may have a path (AD FS's `/adfs`, a gateway's), but not the part
    /// authctl adds itself: a tenant (`…/common`, a tenant id) or the v2 endpoints. Such a
    /// value is the whole authority pasted by mistake, and the error says where each part goes.
    static func checkAuthorityHostPath(_ text: String) throws {
        guard let url = URL(string: text) else { return }
        let segments = url.path.split(separator: "/").map { $0.lowercased() }
        guard let last = segments.last else { return }
        let isTenant = ["common", "organizations", "consumers"].contains(last) || isGUID(last) || last.hasSuffix(".onmicrosoft.com")
        guard isTenant || segments.contains("v2.0") || segments.contains("oauth2") else { return }
        throw AuthError.invalidArgument(
            "\(input: .authorityHost) ends in a tenant or an endpoint path; give the host alone (for example https://login.microsoftonline.com) and the tenant with \(input: .tenant): authctl adds /TENANT/v2.0 itself"
        )
    }

    public static func isGUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// A DNS name with at least two labels: letters, digits and `-`, no label starting or
    /// ending with `-`, a top-level label that is not all digits (so no IP address).
    static func isDomain(_ text: String) -> Bool {
        guard text.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, !last.allSatisfy(\.isNumber) else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { allowed.contains($0) } && label.first != "-"
                && label.last != "-"
        }
    }
}
