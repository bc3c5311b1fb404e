#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A cached provider document (discovery or JWKS) with the time it was fetched.
public struct CachedDocument: Codable, Sendable, Equatable {
    public var fetchedAt: Date
    public var body: Data

    public init(fetchedAt: Date, body: Data) {
        self.fetchedAt = fetchedAt
        self.body = body
    }
}

/// Where discovery documents and JWK Sets are cached between runs. Public documents only:
/// nothing secret is ever cached here.
public protocol MetadataCache: Sendable {
    func load(_ url: URL) -> CachedDocument?
    func store(_ url: URL, _ document: CachedDocument)
}

/// One small JSON file per URL under a cache directory (`$XDG_CACHE_HOME/authctl`).
/// A cache that cannot be read or written is simply not used.
public struct FileMetadataCache: MetadataCache {
    public let directory: String
    let random: any RandomSource

    public init(directory: String, random: any RandomSource) {
        self.directory = directory
        self.random = random
    }

    private func path(for url: URL) -> String {
        let name = Base64URL.encode(Array(url.absoluteString.utf8)).suffix(200)
        return "\(directory)/\(name).json"
    }

    public func load(_ url: URL) -> CachedDocument? {
        guard let data = try? SafeFile.read(path(for: url), what: "the cache file") else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(CachedDocument.self, from: data)
    }

    public func store(_ url: URL, _ document: CachedDocument) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(document) else { return }
        try? SafeFile.writeAtomically(data, to: path(for: url), what: "the cache file", random: random)
    }
}

/// No caching (tests, `--no-cache`).
public struct NoMetadataCache: MetadataCache {
    public init() {}
    public func load(_ url: URL) -> CachedDocument? { nil }
    public func store(_ url: URL, _ document: CachedDocument) {}
}
