import AuthCore

/// Logs one line per exchange at `--verbose` (`-v`): method, host and path, status, duration.
/// Query strings, headers and bodies are never logged, so no secret can reach the log.
struct LoggingTransport: HTTPTransport {
    let base: any HTTPTransport
    let terminal: any Terminal
    let clock: any Clock

    init(_ base: any HTTPTransport, terminal: any Terminal, clock: any Clock) {
        self.base = base
        self.terminal = terminal
        self.clock = clock
    }

    func reach(_ url: URL, what: String) async throws { try await base.reach(url, what: what) }

    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = clock.now()
        let target = Self.target(request)
        do {
            let response = try await base.exchange(request)
            let ms = Int(clock.now().timeIntervalSince(start) * 1000)
            terminal.debug("http: \(target) → \(response.status) (\(ms) ms)")
            return response
        } catch {
            let ms = Int(clock.now().timeIntervalSince(start) * 1000)
            terminal.debug("http: \(target) → failed (\(ms) ms)")
            throw error
        }
    }

    /// A streamed answer is logged when its head arrives (the duration is the time to it):
    /// an event stream may last as long as its reader wants.
    func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        let start = clock.now()
        let target = Self.target(request)
        let (clock, terminal) = (self.clock, self.terminal)
        do {
            return try await base.exchange(
                request,
                decide: { head in
                    let ms = Int(clock.now().timeIntervalSince(start) * 1000)
                    terminal.debug("http: \(target) → \(head.status) (\(ms) ms)")
                    return try decide(head)
                }, sink: sink)
        } catch {
            let ms = Int(clock.now().timeIntervalSince(start) * 1000)
            terminal.debug("http: \(target) → failed (\(ms) ms)")
            throw error
        }
    }

    /// Method, scheme, host, port and path: never the query, which may carry secrets.
    static func target(_ request: HTTPRequest) -> String {
        "\(request.method) \(request.url.scheme ?? "")://\(request.url.host ?? "")\(request.url.port.map { ":\($0)" } ?? "")\(request.url.path)"
    }
}
