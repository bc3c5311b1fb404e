/// An origin (RFC 6454 §4): scheme, host and port, the unit a secret is bound to. The port is
/// always explicit (443 for `https`, 80 for `http` when the URL names none), the scheme and
/// host lower case: `https://IdP.example.com/token` and `https://idp.example.com:443/x` are
/// one origin.
public struct Origin: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    /// The origin of `url`; nil without a scheme or a host, or with a scheme other than
    /// `https` or `http` (nothing else carries a token).
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The stored form, `scheme://host:port` (docs/keystore.md).
    public init?(storedForm text: String) {
        guard let url = URL(string: text), let origin = Origin(url), origin.description == text else { return nil }
        self = origin
    }

    /// `https://idp.example.com:443`: the stored form, and what messages show.
    public var description: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed):\(port)"
    }

    public static func < (lhs: Origin, rhs: Origin) -> Bool { lhs.description < rhs.description }
}

/// Where the secrets of one identity, resource grant, workload or registration may be sent
/// (docs/security.md, "Secrets are bound where they were obtained"): the issuer they were
/// obtained from and the origins of the endpoints that were checked when they were — token,
/// revocation, introspection, userinfo, PAR, device authorization, a registration's client
/// URI, a protected resource, Microsoft Graph. Recorded when the secrets are stored and kept
/// with them (sealed keystores bind it to the sealed values); never widened afterwards by what
/// config.json, a metadata document or a URL says later. `HTTPRequest.Egress.bound` carries it
/// to the transport, where `HTTPRequest.checkEgress` is the one check.
public struct SecretBinding: Sendable, Equatable {
    /// The issuer the secrets came from (RFC 8414 / OpenID `issuer`), as stored with them.
    public var issuer: String
    /// The origins a request carrying them may go to, sorted, each once.
    public private(set) var origins: [Origin]

    public init(issuer: String, origins: some Sequence<Origin>) {
        self.issuer = issuer
        self.origins = Set(origins).sorted()
    }

    /// The binding of secrets stored before authctl recorded one (keystores written by
    /// earlier builds): the origin of the issuer they came from, and `also` (a resource
    /// grant's resource). Endpoints elsewhere need a new sign-in, which records them.
    public static func legacy(issuer: String, also: [URL] = []) -> SecretBinding {
        SecretBinding(issuer: issuer, origins: ([URL(string: issuer)].compactMap { $0 } + also).compactMap(Origin.init))
    }

    /// True when a request to `url` may carry these secrets.
    public func permits(_ url: URL) -> Bool {
        guard let origin = Origin(url) else { return false }
        return origins.contains(origin)
    }

    /// This binding with `more` origins: only for secrets obtained now, from where `more` was
    /// checked (a step-up at the same server).
    public func adding(_ more: [URL]) -> SecretBinding {
        SecretBinding(issuer: issuer, origins: origins + more.compactMap(Origin.init))
    }
}
