import Synchronization

/// One HTTP request as authctl sends it.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// The most bytes of response body accepted; a longer answer fails the request as too
    /// large while it arrives (`HTTPRequest.tooLarge`).
    public var responseLimit: Int
    /// Where the secrets this request carries may go (`checkEgress`, the one check before
    /// anything is sent): `.open` unless the sender says otherwise.
    public var egress: Egress = .open

    /// 1 MiB: token, discovery, JWKS, userinfo and Graph JSON (golang.org/x/oauth2 reads at
    /// most 1 MiB of a token response). An ID token of megabytes is not one to keep.
    public static let defaultResponseLimit = 1 << 20
    /// 16 MiB: a profile photo.
    public static let photoResponseLimit = 16 << 20

    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, responseLimit: Int = defaultResponseLimit
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.responseLimit = responseLimit
    }

    /// A `POST` of `application/x-www-form-urlencoded` parameters.
    public static func form(_ url: URL, _ parameters: [(String, String)], headers: [String: String] = [:]) -> HTTPRequest {
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        all["Accept"] = "application/json"
        return HTTPRequest(method: "POST", url: url, headers: all, body: Data(FormURLEncoding.encode(parameters).utf8))
    }

    /// `host/path` of the URL, for messages (never the query, which may carry secrets).
    public var place: String { "\(url.host ?? "?")\(url.path)" }

    /// Refuses a header whose name or value holds CR, LF or NUL (or a name that is not an
    /// RFC 9110 token): sent as it is, it would end the header and start another one of the
    /// sender's choosing. The values authctl puts in headers that it did not make itself are
    /// tokens from a provider, so such a value is a provider that lies (`invalid-credential`).
    /// The message names the header, never its value.
    public func checkHeaders() throws {
        for (name, value) in headers {
            let badName = name.isEmpty || name.unicodeScalars.contains { !Self.tokenCharacters.contains($0) }
            let badValue = value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
            guard badName || badValue else { continue }
            throw AuthError.invalidCredential(
                "authctl refused to send a request to \(place): its \(badName ? "header name" : "\(Sanitize.text(name, limit: 40)) header") holds a line break or NUL (from a token the provider issued), which would inject headers. Nothing was sent. Sign in again; if it repeats, the provider is misbehaving"
            )
        }
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static let tokenCharacters = ScalarSet(
        charactersIn: "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// The error of an answer longer than `responseLimit`: the provider's answer was too
    /// large (`network-request-failed`, exit 3).
    public func tooLarge() -> AuthError {
        let limit = responseLimit >= 1 << 20 ? "\(responseLimit >> 20) MiB" : "\(responseLimit) bytes"
        return AuthError.network(
            "the answer from \(place) was too large (more than \(limit), the most authctl accepts there), so it was refused. Check that the address is the provider's endpoint; a provider that sends this much is misbehaving"
        )
    }
}

/// One HTTP response. Redirects are never followed: a 3xx arrives here as it is.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.key.equalsIgnoringCase(name) }?.value
    }

    /// The status and headers alone.
    public var head: HTTPResponseHead { HTTPResponseHead(status: status, headers: headers) }
}

/// The status and headers of a response, known before its body arrives.
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]

    public init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        self.headers = headers
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.key.equalsIgnoringCase(name) }?.value
    }

    /// The head as a response without a body (for the checks written for whole responses).
    public var response: HTTPResponse { HTTPResponse(status: status, headers: headers) }
}

/// What a streamed request (`HTTPTransport.stream`) does with the body, decided from the head.
public enum StreamDecision: Sendable, Equatable {
    /// Each chunk goes to the sink as it arrives, with no bound on the whole and no time limit.
    case stream
    /// The body is not wanted (a challenge that is answered by sending again): at most
    /// `discardLimit` bytes of it are read and dropped, then the transfer ends, without error.
    case discard

    /// 64 KiB: an error body nobody reads is not worth more.
    public static let discardLimit = 64 << 10
}

/// The network seam. The executable wires `CurlTransport`; tests wire stubs or the
/// in-process fake provider.
///
/// A transport implements `exchange`; everyone else calls `send` and `stream`, which check
/// the request's egress (`HTTPRequest.checkEgress`) first — the one place where a secret is
/// held to where it was bound, whatever transport is wired, so that no caller can forget it.
/// A transport that wraps another (logging, lazy creation) calls the inner one's `exchange`.
///
/// A transport throws `AuthError` with code `network-request-failed` when the exchange
/// could not happen; any HTTP status, including 3xx and 5xx, is returned as a response.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, already checked. Called by `send` alone (and by wrapping transports).
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends `request`, already checked, and hands the answer on as it arrives (`stream`) (`authctl request`,
    /// docs/resources.md): once the status and headers are in, `decide` is called with them
    /// (once, before any body byte); on `.stream` every chunk of the body then goes to `sink`
    /// in order, while the transfer runs, with no bound on its size and no total time limit;
    /// on `.discard` it is dropped. Returns the head once the body has ended. An error thrown
    /// by `decide` or `sink` (stdout closed) ends the transfer and is thrown as it is.
    /// `request.responseLimit` does not apply; the head must come within the transport's
    /// usual time.
    func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead

    /// Checks that `url`'s host and port take a connection, without sending a request (a
    /// provider whose discovery document came from the cache, before a sign-in waits on it);
    /// throws `network-request-failed` naming the address when they do not. A transport that
    /// cannot tell (a proxy in the way, the fakes answering from memory) returns.
    func reach(_ url: URL, what: String) async throws
}

extension HTTPTransport {
    /// A transport that cannot tell whether an address takes connections says it does.
    public func reach(_ url: URL, what: String) async throws {}

    /// Sends `request` once its egress is checked (`HTTPRequest.checkEgress`): a request whose
    /// secrets may not go to its URL throws, and nothing is sent.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkEgress()
        return try await exchange(request)
    }

    /// `exchange(_:decide:sink:)` once the egress is checked, as `send`.
    public func stream(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        try request.checkEgress()
        return try await exchange(request, decide: decide, sink: sink)
    }

    /// A transport that cannot stream (the fakes answering from memory): the whole answer,
    /// then the decision and the body in one chunk.
    public func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        let response = try await exchange(request)
        if try decide(response.head) == .stream, !response.body.isEmpty { try sink(response.body) }
        return response.head
    }
}
