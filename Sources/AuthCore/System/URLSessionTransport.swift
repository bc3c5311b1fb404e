import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's URLSession (libcurl on Linux).
///
/// Redirects are never followed (SECURITY.md: "Redirects from the token endpoint are not
/// followed"); a 3xx is returned to the caller, which treats it as a protocol violation.
/// TLS verification is Foundation's default and is never switched off.
public final class URLSessionTransport: HTTPTransport, Sendable {
    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.timeout = timeout
        self.session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let host = request.url.host ?? "?"
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(
                        throwing: AuthError.network(
                            "could not reach \(host): \(error.localizedDescription). Check the provider's address and your network, then try again"
                        ))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(throwing: AuthError.network("\(host) did not answer with HTTP. Check the provider's address"))
                    return
                }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                continuation.resume(returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
            }
            task.resume()
        }
    }
}

private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// Logs one line per exchange at `--verbose`: method, host and path, status, duration.
/// Query strings, headers and bodies are never logged, so no secret can reach the log.
public struct LoggingTransport: HTTPTransport {
    let base: any HTTPTransport
    let terminal: any Terminal
    let clock: any Clock

    public init(_ base: any HTTPTransport, terminal: any Terminal, clock: any Clock) {
        self.base = base
        self.terminal = terminal
        self.clock = clock
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = clock.now()
        let target =
            "\(request.method) \(request.url.scheme ?? "")://\(request.url.host ?? "")\(request.url.port.map { ":\($0)" } ?? "")\(request.url.path)"
        do {
            let response = try await base.send(request)
            let ms = Int(clock.now().timeIntervalSince(start) * 1000)
            terminal.debug("http: \(target) → \(response.status) (\(ms) ms)")
            return response
        } catch {
            let ms = Int(clock.now().timeIntervalSince(start) * 1000)
            terminal.debug("http: \(target) → failed (\(ms) ms)")
            throw error
        }
    }
}

/// Creates its transport on the first request, so that commands answered from the
/// keystore alone (`token` with a valid cached token, `status`) never set up networking.
public final class LazyTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let make: @Sendable () -> any HTTPTransport
    private var made: (any HTTPTransport)?

    public init(_ make: @escaping @Sendable () -> any HTTPTransport) { self.make = make }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport = lock.withLock {
            if let made { return made }
            let transport = make()
            made = transport
            return transport
        }
        return try await transport.send(request)
    }
}
