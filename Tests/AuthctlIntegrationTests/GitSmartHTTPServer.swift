import AuthCore
import AuthCoreTestSupport
import Foundation

/// A git smart-HTTP server on 127.0.0.1 for tests: `git http-backend` (CGI) behind the test
/// HTTP server, serving the bare repositories under `root`, for requests whose `Authorization`
/// carries the one token the test expects — Basic with it as the password (any username), or
/// Bearer. Anything else gets 401 with `WWW-Authenticate: Basic`, as Azure DevOps answers.
final class GitSmartHTTPServer: @unchecked Sendable {
    let root: String
    private let lock = NSLock()
    private var expectedToken: String?
    private var seen: [(authorization: String?, accepted: Bool)] = []
    private var server: LoopbackHTTPServer?

    init(root: String) throws {
        self.root = root
        server = try LoopbackHTTPServer { [weak self] request in
            self?.handle(request) ?? HTTPResponse(status: 503)
        }
    }

    deinit { server?.stop() }

    var baseURL: String { server?.baseURL ?? "" }

    func expect(token: String) { lock.withLock { expectedToken = token } }

    /// How many requests carried the expected token, and how many were refused.
    var accepted: Int { lock.withLock { seen.filter(\.accepted).count } }
    var refused: Int { lock.withLock { seen.filter { !$0.accepted }.count } }
    /// The `Authorization` schemes of the accepted requests (`Basic`, `Bearer`).
    var acceptedSchemes: [String] {
        lock.withLock { seen.filter(\.accepted).compactMap { $0.authorization?.split(separator: " ").first.map(String.init) } }
    }

    func isAuthorized(_ authorization: String?) -> Bool {
        guard let token = lock.withLock({ expectedToken }), let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return false }
        switch parts[0].lowercased() {
        case "bearer": return parts[1] == token
        case "basic":
            guard let decoded = Data(base64Encoded: parts[1]).map({ String(decoding: $0, as: UTF8.self) }),
                let colon = decoded.firstIndex(of: ":")
            else { return false }
            return decoded[decoded.index(after: colon)...] == token
        default: return false
        }
    }

    private func handle(_ request: ReceivedRequest) -> HTTPResponse {
        let authorization = request.headers["authorization"]
        let accepted = isAuthorized(authorization)
        lock.withLock { seen.append((authorization, accepted)) }
        guard accepted else {
            return HTTPResponse(
                status: 401, headers: ["WWW-Authenticate": #"Basic realm="authctl test git""#], body: Data("sign in\n".utf8))
        }
        return backend(request)
    }

    /// Runs `git http-backend` for one request (RFC 3875's variables) and turns its CGI answer
    /// into the HTTP response.
    private func backend(_ request: ReceivedRequest) -> HTTPResponse {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "http-backend"]
        var environment = [
            "GIT_PROJECT_ROOT": root, "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": request.method, "PATH_INFO": request.path,
            "QUERY_STRING": request.query ?? "", "CONTENT_LENGTH": String(request.body.count), "REMOTE_USER": "authctl-test",
            "REMOTE_ADDR": "127.0.0.1", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": root,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        if let type = request.headers["content-type"] { environment["CONTENT_TYPE"] = type }
        if let encoding = request.headers["content-encoding"] { environment["HTTP_CONTENT_ENCODING"] = encoding }
        if let protocolVersion = request.headers["git-protocol"] { environment["GIT_PROTOCOL"] = protocolVersion }
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return HTTPResponse(status: 500) }
        input.fileHandleForWriting.write(request.body)
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Self.cgiResponse(data)
    }

    /// A CGI response: header lines (`Status: 404 Not Found` among them), a blank line, the body.
    static func cgiResponse(_ data: Data) -> HTTPResponse {
        let bytes = [UInt8](data)
        var end: (header: Int, body: Int)?
        for index in bytes.indices where bytes[index] == 10 {
            if index + 1 < bytes.count, bytes[index + 1] == 10 { end = (index, index + 2); break }
            if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 { end = (index, index + 3); break }
        }
        guard let end else { return HTTPResponse(status: 502) }
        var response = HTTPResponse(status: 200, body: Data(bytes[end.body...]))
        for line in String(decoding: bytes[..<end.header], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2 else { continue }
            if parts[0].lowercased() == "status" {
                response.status = Int(parts[1].prefix(3)) ?? 500
            } else {
                response.headers[parts[0]] = parts[1]
            }
        }
        return response
    }
}
