/// The tokens a user holds for one protected resource (docs/resources.md): kept per
/// (authorization server, resource), obtained with `resource` (RFC 8707) and refreshed with
/// it. Never sent to a URL its resource does not cover.
public struct ResourceGrant: Sendable, Equatable {
    /// The resource identifier (RFC 9728 §1.2), `https://api.example.com/mcp`.
    public var resource: String
    /// The authorization server that issued the tokens (RFC 8414 `issuer`).
    public var issuer: String
    /// The provider (client) the tokens were obtained with: refreshes and revocations use it.
    public var providerID: String
    public var grantedAt: Date
    /// The tokens; nil after sign-out.
    public var tokens: TokenSet?
    /// `login URL --via P` (identity chaining, docs/resources.md): the user's identity whose
    /// token was exchanged for the grant presented at `issuer`; the grant is renewed by
    /// repeating that chain. nil: an ordinary sign-in's grant.
    public var viaProviderID: String?
    /// With `viaProviderID`: the kind of grant the chain asks for (`requested_token_type`, a URN).
    public var viaTokenType: String?

    public init(
        resource: String, issuer: String, providerID: String, grantedAt: Date, tokens: TokenSet?, viaProviderID: String? = nil,
        viaTokenType: String? = nil
    ) {
        self.resource = resource
        self.issuer = issuer
        self.providerID = providerID
        self.grantedAt = grantedAt
        self.tokens = tokens
        self.viaProviderID = viaProviderID
        self.viaTokenType = viaTokenType
    }

    /// Where the grant's tokens may be sent: what was recorded when they were obtained — the
    /// authorization server's endpoints and the resource (docs/security.md).
    public var binding: SecretBinding {
        let resourceURL = URL(string: resource).map { [$0] } ?? []
        return tokens?.binding(issuer: issuer, also: resourceURL) ?? .legacy(issuer: issuer, also: resourceURL)
    }

    /// True when the grant is for `resource` at `issuer`.
    public func matches(resource: String, issuer: String) -> Bool { self.resource == resource && self.issuer == issuer }
}

extension User {
    /// The grant for a request to `url`: of the grants whose resource covers it, the one with
    /// the longest path (docs/resources.md), and of those the newest — a resource that moved to
    /// another authorization server is used through the grant of the server it names now;
    /// nil when none does.
    public func resourceGrant(for url: URL) -> ResourceGrant? {
        resourceGrants
            .compactMap { grant in (try? ResourceIdentifier(parsing: grant.resource)).map { (grant, $0) } }
            .filter { $0.1.covers(url) }
            .max { ($0.1.specificity, $0.0.grantedAt) < ($1.1.specificity, $1.0.grantedAt) }?.0
    }

    /// Adds `grant`, or replaces the one for the same (issuer, resource).
    public mutating func store(_ grant: ResourceGrant) {
        if let index = resourceGrants.firstIndex(where: { $0.matches(resource: grant.resource, issuer: grant.issuer) }) {
            resourceGrants[index] = grant
        } else {
            resourceGrants.append(grant)
        }
    }
}
