/// The provider's discovery document, fetched now (never from the metadata cache) and
/// checked as a sign-in checks it (`providers add`, `doctor`). Apple's endpoints are
/// documented: nothing is fetched. A failure names the exact URL tried, with its scheme and
/// port, before the reason.
public struct DiscoveryCheck: Sendable {
    let transport: any HTTPTransport
    let clock: any Clock

    public init(transport: any HTTPTransport, clock: any Clock) {
        self.transport = transport
        self.clock = clock
    }

    public func run(_ provider: any ProviderDiscovery & ErrorAdvice) async throws -> DiscoveryDocument {
        if let documented = provider.documentedMetadata { return documented }
        let metadata = ProviderMetadata(transport: transport, clock: clock, metadataCache: NoMetadataCache())
        do {
            return try await metadata.discovery(for: provider)
        } catch let error as AuthError {
            // Named once: a message that already names the URL (an HTTP status) keeps its words.
            let shown = DiscoveryCheck.shown(provider.discoveryURL)
            if error.message.contains(shown) { throw error }
            throw error.reworded { "\(provider.id)'s discovery document \(shown): \($0)" }
        }
    }

    /// A URL as a message shows it: scheme, host, port and path (the query, if any, left out).
    public static func shown(_ url: URL) -> String { Sanitize.url(url) }
}
