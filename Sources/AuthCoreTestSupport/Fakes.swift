import AuthCore
import Foundation

/// A clock that says what the test tells it.
public final class FixedClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ date: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = date }

    public func now() -> Date { lock.withLock { current } }
    public func advance(by seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

/// Deterministic "random" bytes: a counter, so every draw differs and runs repeat.
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

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lock.withLock { sent.append(request) }
        return try answer(request)
    }
}

/// A terminal that remembers every line, to check what a person would see.
public final class RecordingTerminal: Terminal, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    public let isInteractive: Bool

    private var answers: [Bool]

    /// - Parameter answers: what a person answers to `confirm`, in order (then no).
    public init(interactive: Bool = false, answers: [Bool] = []) {
        isInteractive = interactive
        self.answers = answers
    }

    public var lines: [String] { lock.withLock { recorded } }
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

    public init(rewriteRedirect: @escaping @Sendable (URL) -> URL = { $0 }) { self.rewriteRedirect = rewriteRedirect }

    public func open(_ url: URL) -> Bool {
        let rewrite = rewriteRedirect
        Task.detached {
            let transport = URLSessionTransport(timeout: 10)
            guard let response = try? await transport.send(HTTPRequest(url: url)), response.status == 302,
                let location = response.header("Location"), let redirect = URL(string: location)
            else { return }
            _ = try? await transport.send(HTTPRequest(url: rewrite(redirect)))
        }
        return true
    }
}

/// Secrets from a dictionary.
public struct StaticSecrets: SecretSource {
    public var environment: [String: String]
    public init(_ environment: [String: String] = [:]) { self.environment = environment }
    public func environmentValue(_ name: String) -> String? { environment[name] }
    public func fileContents(_ path: String) throws -> String { throw AuthError.notConfigured("no files in tests") }
}
