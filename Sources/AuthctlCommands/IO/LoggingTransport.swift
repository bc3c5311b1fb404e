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

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
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
