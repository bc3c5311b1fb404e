import CLibCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `HTTPTransport` over libcurl's easy interface, loaded with `dlopen` on the first request.
///
/// Why not Foundation's URLSession: FoundationNetworking links libcurl and its ~30 shared
/// libraries into the executable, so every start of authctl paid for loading them — about
/// 4.4 ms and 6 MiB (bench/README.md) — even `authctl token` answering from the keystore.
/// Loaded on demand, libcurl costs only the commands that talk to a provider.
///
/// Redirects are never followed (docs/security.md: "Redirects from the token endpoint are not
/// followed"); a 3xx is returned to the caller, which treats it as a protocol violation.
/// Only `http` and `https` are allowed; TLS verification is libcurl's default (on) and is
/// never switched off.
///
/// Every request carries `User-Agent` (`authctl/VERSION`, given by the executable), is
/// refused before anything is sent when a header holds a line break (`HTTPRequest.
/// checkHeaders`), and reads at most `HTTPRequest.responseLimit` bytes of answer. Proxies
/// come from the usual variables (`ProxyRoute`), but a loopback provider is never reached
/// through one, and a failure through a proxy names it.
public struct CurlTransport: HTTPTransport {
    let timeout: TimeInterval
    let userAgent: String?
    let environment: [String: String]

    /// - Parameters:
    ///   - userAgent: the `User-Agent` of every request (`authctl/0.1.0`).
    ///   - environment: where the proxy variables are read (`http_proxy`, `NO_PROXY`, …).
    public init(
        timeout: TimeInterval = 30, userAgent: String? = nil, environment: [String: String]
    ) {
        self.timeout = timeout
        self.userAgent = userAgent
        self.environment = environment
    }

    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkHeaders()
        let curl = try LibCurl.shared()
        let settings = LibCurl.Settings(
            timeout: timeout, userAgent: userAgent, route: ProxyRoute(for: request.url, environment: environment))
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                DetachedThread.start {
                    continuation.resume(with: Result { try curl.perform(request, settings: settings, cancelled: cancelled) })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// The body handed on chunk by chunk, as libcurl gives it (`authctl request`): no bound on
    /// its size and no total time limit (an event stream may stay open, idle, for hours; Ctrl-C
    /// ends it). The connection must be made within the usual connect time and the head must
    /// come within `timeout`, as for any request.
    public func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        try request.checkHeaders()
        let curl = try LibCurl.shared()
        let settings = LibCurl.Settings(
            timeout: timeout, userAgent: userAgent, route: ProxyRoute(for: request.url, environment: environment))
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                DetachedThread.start {
                    continuation.resume(
                        with: Result {
                            let streaming = LibCurl.Streaming(
                                decide: decide, sink: sink, headDeadline: .now + .milliseconds(Int(settings.timeout * 1000)))
                            return try curl.perform(request, settings: settings, cancelled: cancelled, streaming: streaming)
                        })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }
}
