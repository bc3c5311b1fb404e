import Crypto

/// A cached provider document (discovery or JWKS): the URL it was fetched from, what it is,
/// the issuer it was fetched for, and when.
///
/// An entry is used only for the URL it names, as the kind of document it was stored as, for
/// the issuer it was fetched for (docs/security.md, caches): a document of one provider can never
/// stand in for another's, however their URLs look.
public struct CachedDocument: Codable, Sendable, Equatable {
    /// What a cached document is.
    public enum Kind: String, Codable, Sendable {
        /// An OpenID discovery document (`/.well-known/openid-configuration`).
        case discovery
        /// A JWK Set (RFC 7517 §5), from a discovery document's `jwks_uri`.
        case keySet
    }

    /// The whole URL the document was fetched from.
    public var url: String
    public var kind: Kind
    /// The issuer the document was fetched for: the configured issuer for a discovery
    /// document, the discovery document's `issuer` for its key set.
    public var issuer: String
    public var fetchedAt: Date
    public var body: Data

    public init(url: URL, kind: Kind, issuer: String, fetchedAt: Date, body: Data) {
        self.url = url.absoluteString
        self.kind = kind
        self.issuer = issuer
        self.fetchedAt = fetchedAt
        self.body = body
    }

    /// Whether this entry may be used as `kind` of `issuer` fetched from `url`.
    func serves(_ url: URL, as kind: Kind, for issuer: String) -> Bool {
        self.url == url.absoluteString && self.kind == kind && self.issuer == issuer
    }
}

/// Where discovery documents and JWK Sets are cached between runs. Public documents only:
/// nothing secret is ever cached here. `load` returns only an entry stored for that very URL.
public protocol MetadataCache: Sendable {
    func load(_ url: URL) -> CachedDocument?
    func store(_ document: CachedDocument)
}

/// No caching (tests, `--no-cache`).
public struct NoMetadataCache: MetadataCache {
    public init() {}
    public func load(_ url: URL) -> CachedDocument? { nil }
    public func store(_ document: CachedDocument) {}
}
