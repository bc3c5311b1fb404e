import Crypto

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
