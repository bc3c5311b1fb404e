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
    /// One sign-in for several resources (`login URL URL2`, docs/resources.md): the resource of
    /// this user's grant (same issuer, same provider) that holds the sign-in's refresh token,
    /// which renews this grant too; this grant's tokens hold none. nil: its own refresh token.
    public var refreshTokenOf: String?

    public init(
        resource: String, issuer: String, providerID: String, grantedAt: Date, tokens: TokenSet?, viaProviderID: String? = nil,
        viaTokenType: String? = nil, refreshTokenOf: String? = nil
    ) {
        self.resource = resource
        self.issuer = issuer
        self.providerID = providerID
        self.grantedAt = grantedAt
        self.tokens = tokens
        self.viaProviderID = viaProviderID
        self.viaTokenType = viaTokenType
        self.refreshTokenOf = refreshTokenOf
    }

    /// Where the grant's tokens may be sent: what was recorded when they were obtained — the
    /// authorization server's endpoints and the resource (docs/security.md).
    public var binding: SecretBinding {
        let resourceURL = URL(string: resource).map { [$0] } ?? []
        return tokens?.binding(issuer: issuer, also: resourceURL) ?? .legacy(issuer: issuer, also: resourceURL)
    }

    /// True when the grant is for `resource` at `issuer`.
    public func matches(resource: String, issuer: String) -> Bool { self.resource == resource && self.issuer == issuer }

    /// True when this grant's refresh token, if it has one, is the one `other` names.
    func holdsRefreshToken(of other: ResourceGrant) -> Bool {
        refreshTokenOf == nil && other.refreshTokenOf == resource && other.issuer == issuer && other.providerID == providerID
    }
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

    /// Adds `grant`, or replaces the one for the same (issuer, resource). A replaced grant that
    /// held the refresh token of a sign-in for several resources hands it to the first grant
    /// that named it, which the others then name: the new grant's refresh token need not cover
    /// their resources.
    public mutating func store(_ grant: ResourceGrant) {
        guard let index = resourceGrants.firstIndex(where: { $0.matches(resource: grant.resource, issuer: grant.issuer) }) else {
            resourceGrants.append(grant)
            return
        }
        let old = resourceGrants[index]
        resourceGrants[index] = grant
        // The members that hold tokens (`refreshFamily`'s): a grant without them inherits nothing.
        let named = resourceGrants.indices.filter {
            $0 != index && resourceGrants[$0].tokens != nil && old.holdsRefreshToken(of: resourceGrants[$0])
        }
        guard let heir = named.first else { return }
        resourceGrants[heir].refreshTokenOf = nil
        resourceGrants[heir].tokens?.refreshToken = old.tokens?.refreshToken
        for other in named.dropFirst() { resourceGrants[other].refreshTokenOf = resourceGrants[heir].resource }
    }

    /// The indices of the grants renewed with the refresh token `grant` uses: the grant that
    /// holds it first, then those that name it and hold tokens. Nil when `grant` names a holder
    /// that is gone. A grant without tokens is no member: nothing of it is sealed, so in a sealed
    /// keystore its `refreshTokenOf` could have been written without the key.
    func refreshFamily(of grant: ResourceGrant) -> [Int]? {
        let holder: Int
        if let named = grant.refreshTokenOf {
            guard
                let index = resourceGrants.firstIndex(where: {
                    $0.matches(resource: named, issuer: grant.issuer) && $0.holdsRefreshToken(of: grant)
                })
            else { return nil }
            holder = index
        } else {
            guard let index = resourceGrants.firstIndex(where: { $0.matches(resource: grant.resource, issuer: grant.issuer) }) else {
                return nil
            }
            holder = index
        }
        let members = resourceGrants.indices.filter {
            $0 != holder && resourceGrants[$0].tokens != nil && resourceGrants[holder].holdsRefreshToken(of: resourceGrants[$0])
        }
        return [holder] + members
    }
}
