import Synchronization

/// Creates its transport on the first request, so that commands answered from the
/// keystore alone (`token` with a valid cached token, `status`) never set up networking.
public final class LazyTransport: HTTPTransport, Sendable {
    private let make: @Sendable () -> any HTTPTransport
    private let made = Mutex<(any HTTPTransport)?>(nil)

    public init(_ make: @escaping @Sendable () -> any HTTPTransport) { self.make = make }

    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await transport.exchange(request)
    }

    public func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        try await transport.exchange(request, decide: decide, sink: sink)
    }

    public func reach(_ url: URL, what: String) async throws { try await transport.reach(url, what: what) }

    private var transport: any HTTPTransport {
        made.withLock { made in
            if let made { return made }
            let transport = make()
            made = transport
            return transport
        }
    }
}
