import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// `authctl request` in process, through libcurl, against a resource on loopback (issue 35,
/// part D): the URL checked against the grant is the URL sent (dot segments removed first,
/// encoded dots and slashes refused), and a body that reaches a terminal is visible-safe.
@Suite("authctl request: the URL checked is the URL sent; a body on a terminal is visible-safe", .serialized)
final class RequestCommandTests {
    let authctl = InProcessAuthctl()
    let resource: LoopbackHTTPServer
    /// The request targets the resource received with a token.
    let seen = SeenTargets()

    /// OSC 52 (writes the clipboard), OSC 0 (the window title), CSI 2J (clears the screen), a
    /// C1 CSI, a right-to-left override, and lines and tabs that must stay.
    static let hostileBody =
        "line one\n\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\tcol\u{202E}txt\r\nend\rX\n"

    init() throws {
        let seen = self.seen
        resource = try LoopbackHTTPServer { request in
            guard request.headers["authorization"] == "Bearer at-api" else { return HTTPResponse(status: 401) }
            seen.add(request.target)
            if request.target.hasSuffix("/hostile") {
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(Self.hostileBody.utf8))
            }
            return HTTPResponse(status: 200, body: Data("the data".utf8))
        }
    }

    deinit {
        resource.stop()
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    var api: String { resource.baseURL + "/api" }

    /// The current user holds a grant for `/api` (and for no other path of this origin).
    func grant() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        var user = User(
            uid: "u1", email: nil, emailVerified: false, displayName: nil, photoURL: nil, createdAt: now, lastSignInAt: now,
            lastAuthAt: now, lastProviderID: nil, providerData: [])
        user.store(
            ResourceGrant(
                resource: api, issuer: "https://as.example", providerID: "oidc.as", grantedAt: now,
                tokens: TokenSet(
                    accessToken: "at-api", expiresAt: now.addingTimeInterval(3600), refreshToken: nil, idToken: nil, scopes: [])))
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "u1", users: [user])
        }
    }

    @Test("…/api/../secret is a request to /secret: no grant covers it, so it fails (13) and the /api token goes nowhere")
    func dotSegmentsLeaveTheResource() async throws {
        try await grant()
        for url in ["\(api)/../secret", "\(api)/./../secret", "\(api)/items/../../secret", "\(api)/.."] {
            let result = try await authctl.run(["request", url])
            #expect(result.status == 13, "\(url): \(result.status) \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(url): \(result.stdout)")
        }
        #expect(seen.targets.isEmpty, "the resource received the /api token for \(seen.targets)")
    }

    @Test("dot segments that stay inside the resource are removed before sending: …/api/x/../items is sent as /api/items")
    func dotSegmentsInside() async throws {
        try await grant()
        let result = try await authctl.run(["request", "\(api)/x/./../items?q=a/../b"])
        #expect(result.status == 0 && result.stdout == "the data", "\(result.stderr)")
        #expect(seen.targets == ["/api/items?q=a/../b"])
    }

    @Test("percent-encoded dots, slashes and backslashes in the path are refused (2) before anything is sent, naming the fix")
    func encodedDotsAndSlashes() async throws {
        try await grant()
        for path in ["/%2e%2e/secret", "/%2E%2E/secret", "/.%2e/secret", "/a%2fb", "/a%2Fb", "/a%5cb", "/a\\..\\secret"] {
            let result = try await authctl.run(["request", api + path])
            #expect(result.status == 2, "\(path): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("encoded") || result.stderr.contains("backslash"), "\(path): \(result.stderr)")
            #expect(!result.stderr.contains("at-api"))
        }
        #expect(seen.targets.isEmpty, "sent: \(seen.targets)")
    }

    @Test("a body on a terminal: OSC 52, OSC 0, CSI 2J, C1 and bidi overrides escaped; lines, tabs and CRLF kept")
    func bodyOnTerminal() async throws {
        try await grant()
        let result = try await authctl.run(["request", "\(api)/hostile"], terminals: .init(stdout: true))
        #expect(result.status == 0, "\(result.stderr)")
        let raw = result.stdout.unicodeScalars.filter { Sanitize.isUnsafeToShow($0) && $0 != "\n" && $0 != "\t" && $0 != "\r" }
        #expect(raw.isEmpty, "reached the terminal raw: \(raw.map { String($0.value, radix: 16) }) in \(result.stdout.debugDescription)")
        #expect(result.stdout.contains("line one\n") && result.stdout.contains("\tcol") && result.stdout.contains("txt\r\nend"))
        #expect(result.stdout.contains("\\u{1B}]52;c;cHduZWQ=\\u{7}"), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("end\\u{D}X"), "a lone carriage return (which overwrites the line) is escaped")
    }

    @Test("a body to a pipe or a file is written raw, byte for byte")
    func bodyToPipe() async throws {
        try await grant()
        let result = try await authctl.run(["request", "\(api)/hostile"])
        #expect(result.status == 0 && result.stdout == Self.hostileBody, "\(result.stdout.debugDescription)")
    }

    @Test("--data @FILE takes a FIFO (`--data @<(jq …)`), reading 16 MiB at most: an endless device is refused (2), nothing sent")
    func dataFileBounded() async throws {
        try await grant()
        let fifo = authctl.home + "/body.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("{\"from\": \"a pipe\"}".utf8))
            try? handle.close()
        }
        writer.start()
        let piped = try await authctl.run(["request", "\(api)/items", "--data", "@" + fifo])
        #expect(piped.status == 0 && piped.stdout == "the data", "\(piped.status) \(piped.stderr)")
        #expect(seen.targets == ["/api/items"])
        let endless = try await authctl.run(["request", "\(api)/items", "--data", "@/dev/zero"])
        #expect(endless.status == 2, "\(endless.status) \(endless.stderr)")
        #expect(endless.stderr.contains("16 MiB") && endless.stderr.contains("--data"), "\(endless.stderr)")
        let directory = try await authctl.run(["request", "\(api)/items", "--data", "@/"])
        #expect(directory.status == 2 && directory.stderr.contains("--data"), "\(directory.stderr)")
        #expect(seen.targets == ["/api/items"], "sent: \(seen.targets)")
    }
}

/// The request targets a test resource received, from its threads.
final class SeenTargets: Sendable {
    private let stored = Mutex<[String]>([])
    func add(_ target: String) { stored.withLock { $0.append(target) } }
    var targets: [String] { stored.withLock { $0 } }
}
