import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A cached provider document (discovery or JWKS): the URL it was fetched from, what it is,
/// the issuer it was fetched for, and when.
///
/// An entry is used only for the URL it names, as the kind of document it was stored as, for
/// the issuer it was fetched for (SECURITY.md, caches): a document of one provider can never
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

/// One small JSON file per URL under a cache directory (`$XDG_CACHE_HOME/authctl`), named by
/// the SHA-256 of the whole URL. The directory may be shared by several keystores and
/// providers: an entry carries its URL and is checked against it on load, so a file copied,
/// planted or left by another URL is never used. A cache that cannot be read or written is
/// simply not used.
public struct FileMetadataCache: MetadataCache {
    public let directory: String
    let random: any RandomSource

    public init(directory: String, random: any RandomSource) {
        self.directory = directory
        self.random = random
    }

    func path(for url: String) -> String {
        "\(directory)/metadata-\(Hex.lowercase(SHA256.hash(data: Array(url.utf8)))).json"
    }

    public func load(_ url: URL) -> CachedDocument? {
        guard let data = try? SafeFile.read(path(for: url.absoluteString), what: "the cache file") else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let document = try? decoder.decode(CachedDocument.self, from: data), document.url == url.absoluteString else { return nil }
        return document
    }

    public func store(_ document: CachedDocument) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(document) else { return }
        try? SafeFile.writeAtomically(data, to: path(for: document.url), what: "the cache file", random: random)
    }
}

/// No caching (tests, `--no-cache`).
public struct NoMetadataCache: MetadataCache {
    public init() {}
    public func load(_ url: URL) -> CachedDocument? { nil }
    public func store(_ document: CachedDocument) {}
}
