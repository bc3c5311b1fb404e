import AuthCore
import Foundation

/// A clock that says what the test tells it.
/// A clock a test can move forward.
public protocol AdvanceableClock: Clock {
    func advance(by seconds: TimeInterval)
}

/// The wall clock, moved forward by what a test adds: deadlines and waits take real time
/// (in-process commands, where real sockets and a real browser race with them), and the
/// test can still jump ahead (a token's lifetime).
public final class RunningClock: AdvanceableClock, @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    public init() {}

    public func now() -> Date { Date().addingTimeInterval(lock.withLock { offset }) }
    public func advance(by seconds: TimeInterval) { lock.withLock { offset += seconds } }
}

public final class FixedClock: AdvanceableClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ date: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = date }

    public func now() -> Date { lock.withLock { current } }
    public func advance(by seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }

    /// Sleeping moves the clock at once: tests of polling never wait real seconds.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        advance(by: seconds)
        lock.withLock { slept.append(seconds) }
    }

    private var slept: [TimeInterval] = []
    /// Every wait asked of this clock, in order.
    public var sleeps: [TimeInterval] { lock.withLock { slept } }
}

/// Deterministic "random" bytes: a counter, so every draw differs and runs repeat (the
/// sign-in session's tests pin its state, nonce and start path).
public final class SeededRandom: RandomSource, @unchecked Sendable {
    private let lock = NSLock()
    private var counter: UInt8

    public init(seed: UInt8 = 1) { counter = seed }

    public func bytes(count: Int) -> [UInt8] {
        lock.withLock {
            counter &+= 1
            return (0..<count).map { UInt8(truncatingIfNeeded: Int($0) &+ Int(counter) &* 31) }
        }
    }
}

/// An HTTP transport that answers from a closure and records what was sent.
public final class StubTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [HTTPRequest] = []
    private let answer: @Sendable (HTTPRequest) throws -> HTTPResponse

    public init(_ answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.answer = answer }

    public var requests: [HTTPRequest] { lock.withLock { sent } }

    /// Like `CurlTransport`: a header with a line break is refused before anything is
    /// "sent", an answer longer than the request's limit fails as too large.
    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkHeaders()
        lock.withLock { sent.append(request) }
        let response = try answer(request)
        if response.body.count > request.responseLimit { throw request.tooLarge() }
        return response
    }

    /// `stream`: the body handed on in chunks of this many bytes (the last may be shorter).
    public var chunkSize = 4
    private var log: [String] = []

    /// What `stream` did, in order: `head STATUS → stream|discard`, `chunk N` after the sink
    /// took chunk N, `discarded N bytes`, `end`. A sink that records its own lines in this log
    /// (`note`) shows which came first.
    public var events: [String] { lock.withLock { log } }

    /// Adds a line to `events` (a sink's own record, in order with the transport's).
    public func note(_ line: String) { lock.withLock { log.append(line) } }

    /// Like `CurlTransport.stream`: the head decided before any body byte, the body handed on
    /// chunk by chunk with no bound, a discarded body read to `StreamDecision.discardLimit` at
    /// most (what was read is in `events`).
    public func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        try request.checkHeaders()
        lock.withLock { sent.append(request) }
        let response = try answer(request)
        let decision = try decide(response.head)
        note("head \(response.status) → \(decision == .stream ? "stream" : "discard")")
        switch decision {
        case .stream:
            var offset = 0
            var number = 0
            while offset < response.body.count {
                let end = min(offset + max(chunkSize, 1), response.body.count)
                try sink(response.body.subdata(in: offset..<end))
                number += 1
                note("chunk \(number)")
                offset = end
            }
        case .discard:
            note("discarded \(min(response.body.count, StreamDecision.discardLimit)) bytes")
        }
        note("end")
        return response.head
    }
}

/// The person at a terminal, as the core's ports see them: the events port of a sign-in,
/// remembering each event (and its description among the lines, so that a check that no
/// secret is shown covers them too), the consent prompt (each question among the lines, as
/// `? QUESTION`, in the command layer's words), and what they paste for `--manual`.
public final class RecordingTerminal: AuthEventSink, ConsentPrompt, @unchecked Sendable {
    /// What the command layer shows before it reads a pasted address (`StderrTerminal`).
    public static let pastePrompt =
        "Then paste the address the browser ended on (its page may fail to load: that is expected), the form body it posted, or the last line 'authctl bootstrap' printed, and press Enter:"

    private let lock = NSLock()
    private var recorded: [String] = []
    private var reported: [SignInEvent] = []

    /// A sign-in's event is kept (`events`) and shown as its value; any other as its value.
    public func report(_ event: AuthEvent) {
        lock.withLock {
            guard case .signIn(let event) = event else { return recorded.append(String(describing: event)) }
            reported.append(event)
            recorded.append(String(describing: event))
        }
    }

    /// Every event a sign-in reported, in order.
    public var events: [SignInEvent] { lock.withLock { reported } }
    public let isInteractive: Bool

    private var answers: [Bool]

    private let respond: (@Sendable ([String]) async -> String?)?

    /// - Parameters:
    ///   - answers: what a person answers to `confirm`, in order (then no).
    ///   - respond: what a person pastes for `readInput`, given every line shown so far
    ///     (the authorization URL among them); nil: end of input.
    public init(interactive: Bool = false, answers: [Bool] = [], respond: (@Sendable ([String]) async -> String?)? = nil) {
        isInteractive = interactive
        self.answers = answers
        self.respond = respond
    }

    public func readInput(prompt: String) async -> String? {
        let shown = lock.withLock {
            recorded.append(prompt)
            return recorded
        }
        return await respond?(shown)
    }

    public var lines: [String] { lock.withLock { recorded } }

    public var canAsk: Bool { isInteractive }

    /// The question as the command layer asks it (`TerminalConsentPrompt`).
    public func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool {
        confirm("Link \(providerID) to \(user.email ?? user.uid)? Note: \(reason).")
    }

    /// The question as the command layer asks it (`TerminalConsentPrompt.question(lending:)`), in short.
    public func agreesToLend(_ lending: BorrowedProvider) -> Bool {
        confirm(
            "Use your provider \(lending.providerID) (\(lending.issuer)) for the resource \(lending.resource), with the scopes \(lending.scopes.joined(separator: " "))?"
        )
    }

    /// The question as the command layer asks it (`TerminalConsentPrompt.question(moving:)`), in short.
    public func agreesToMove(_ move: ServerMove) -> Bool {
        confirm("Move \(move.resource) from \(move.from) to \(move.to)?")
    }

    public func confirm(_ question: String) -> Bool {
        lock.withLock {
            recorded.append("? " + question)
            return answers.isEmpty ? false : answers.removeFirst()
        }
    }
    public func progress(_ line: String) { lock.withLock { recorded.append(line) } }
    public func notice(_ line: String) { lock.withLock { recorded.append(line) } }
    public func debug(_ line: String) { lock.withLock { recorded.append(line) } }
}

/// A "browser" that follows the authorization URL through the provider's 302 into the
/// real loopback listener — what a person's browser does — in the test process.
public struct FollowingBrowser: BrowserLauncher {
    /// Lets a test tamper with the redirect before it reaches the listener.
    public var rewriteRedirect: @Sendable (URL) -> URL
    /// Runs once the redirect was answered (a test advances its clock past the deadline).
    public var afterRedirect: @Sendable () -> Void

    public init(rewriteRedirect: @escaping @Sendable (URL) -> URL = { $0 }, afterRedirect: @escaping @Sendable () -> Void = {}) {
        self.rewriteRedirect = rewriteRedirect
        self.afterRedirect = afterRedirect
    }

    public func open(_ url: URL) -> Bool {
        let rewrite = rewriteRedirect, after = afterRedirect
        Task.detached {
            defer { after() }
            // The provider in memory, the listener through its real socket.
            let transport = InMemoryNetwork()
            var url = url
            // authctl's one-time start URL redirects to the provider's authorization URL.
            if url.path.hasPrefix("/start/") {
                guard let start = try? await transport.send(HTTPRequest(url: url)), start.status == 302,
                    let location = start.header("Location").flatMap(URL.init(string:))
                else { return }
                url = location
            }
            guard let response = try? await transport.send(HTTPRequest(url: url)) else { return }
            if response.status == 302, let location = response.header("Location"), let redirect = URL(string: location) {
                _ = try? await transport.send(HTTPRequest(url: rewrite(redirect)))
            } else if response.status == 200, let form = AutoPostForm(html: String(decoding: response.body, as: UTF8.self)) {
                // response_mode=form_post: the page posts the response to the redirect URI.
                // A browser, not authctl: it hands the code to the redirect URI the page names.
                var post = HTTPRequest(
                    method: "POST", url: rewrite(form.action), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data(FormURLEncoding.encode(form.fields).utf8))
                post.egress = .handedOver(recipient: "the redirect URI")
                _ = try? await transport.send(post)
            }
        }
        return true
    }
}

/// The auto-submitting form of a `form_post` response page (OAuth 2.0 Form Post Response
/// Mode): its action and hidden fields, as a browser would post them.
public struct AutoPostForm: Sendable, Equatable {
    public var action: URL
    public var fields: [(String, String)]

    public init?(html: String) {
        guard let formTag = html.range(of: #"<form[^>]*>"#, options: .regularExpression),
            let action = Self.attribute("action", in: String(html[formTag])).flatMap(URL.init(string:))
        else { return nil }
        self.action = action
        var fields: [(String, String)] = []
        var rest = html[formTag.upperBound...]
        while let input = rest.range(of: #"<input[^>]*>"#, options: .regularExpression) {
            let tag = String(rest[input])
            if let name = Self.attribute("name", in: tag) { fields.append((name, Self.attribute("value", in: tag) ?? "")) }
            rest = rest[input.upperBound...]
        }
        self.fields = fields
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.action == rhs.action && lhs.fields.map { "\($0.0)=\($0.1)" } == rhs.fields.map { "\($0.0)=\($0.1)" }
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: " \(name)=\"[^\"]*\"", options: .regularExpression) else { return nil }
        let value = tag[range].dropFirst(name.count + 3).dropLast()
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Secrets from a dictionary.
public struct StaticSecrets: SecretSource {
    public var environment: [String: String]
    public init(_ environment: [String: String] = [:]) { self.environment = environment }
    public func environmentValue(_ name: String) -> String? { environment[name] }
    public func fileContents(_ path: String) throws -> String { throw AuthError.notConfigured("no files in tests") }
    /// The key file itself, under the executable's rules (the user's own, mode 0600).
    public func privateKey(_ path: String) throws -> String { try ProcessSecretSource(environment: [:]).privateKey(path) }
}

extension HTTPRequest {
    /// This request, sent by a test or a fake server (not by authctl) with the credential it
    /// carries on purpose: the egress rule lets it through (`HTTPRequest.Egress.handedOver`).
    public func handedOver(to recipient: String = "the test's server") -> HTTPRequest {
        var request = self
        request.egress = .handedOver(recipient: recipient)
        return request
    }
}
