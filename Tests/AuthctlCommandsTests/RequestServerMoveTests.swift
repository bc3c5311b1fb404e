import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// `authctl request` in process, through libcurl, when the resource's metadata starts naming
/// another authorization server (MCP SEP-2352; docs/resources.md, "When the authorization server
/// changes"): two providers in the test process, a resource on loopback whose metadata moves from
/// the first to the second. The move needs the person's consent; the keystore is as it was
/// without it.
@Suite("authctl request: a resource that moves to another authorization server", .serialized)
final class RequestServerMoveTests {
    let authctl = InProcessAuthctl()
    let first: FakeIdentityProvider
    let second: FakeIdentityProvider
    let resource: LoopbackHTTPServer
    /// The issuer the resource's metadata names; the resource takes only its tokens.
    let current: Shared<String>
    /// Every token the resource received, in order.
    let received = Shared<[String]>([])
    /// When set, a token of the second server makes the resource name yet another server.
    let restless = Shared(false)
    /// Where the restless resource moves: nothing listens there.
    static let third = "http://127.0.0.1:9/o"

    /// The browser command of the tests that have no terminal: curl follows the redirects as a
    /// browser would, so a sign-in that should not happen would succeed.
    static let browserCommand = "curl --silent --show-error --location --max-time 20 --output /dev/null"

    init() throws {
        let first = try FakeIdentityProvider()
        let second = try FakeIdentityProvider()
        // Another identity at the second server (the same verified email would be another account's).
        second.update { $0.email = "ada@second.example" }
        let current = Shared(first.issuer)
        let received = self.received, restless = self.restless
        let providers = [first, second]
        resource = try LoopbackHTTPServer { request in
            let base = "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "0")"
            let metadata = "\(base)/.well-known/oauth-protected-resource/api"
            var issuer = current.withLock { $0 }
            if request.target == "/.well-known/oauth-protected-resource/api" {
                let body = #"{"resource": "\#(base)/api", "authorization_servers": ["\#(issuer)"], "scopes_supported": ["read"]}"#
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            }
            let token = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
            if let token { received.withLock { $0.append(token) } }
            if let token, restless.withLock({ $0 }), second.issuedSecrets.contains(token) {
                current.withLock { $0 = Self.third }
            }
            issuer = current.withLock { $0 }
            guard let token, let server = providers.first(where: { $0.issuer == issuer }), server.issuedSecrets.contains(token) else {
                return HTTPResponse(
                    status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token", resource_metadata="\#(metadata)""#])
            }
            return HTTPResponse(status: 200, body: Data("the data of \(issuer)".utf8))
        }
        self.first = first
        self.second = second
        self.current = current
    }

    deinit {
        resource.stop()
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    var api: String { resource.baseURL + "/api" }

    /// Clients of both servers, registered for the resource (no consent to lend is asked), and
    /// a grant from the first.
    func signInAtFirst() async throws {
        let config = #"""
            {"version": 1, "providers": {
             "oidc.first": {"id": "oidc.first", "clientId": "\#(first.clientID)", "issuer": "\#(first.issuer)", "registeredFor": ["\#(api)"]},
             "oidc.second": {"id": "oidc.second", "clientId": "\#(second.clientID)", "issuer": "\#(second.issuer)", "registeredFor": ["\#(api)"]}}}
            """#
        try FileManager.default.createDirectory(
            atPath: authctl.home + "/config/authctl", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(
            FileManager.default.createFile(atPath: authctl.configPath, contents: Data(config.utf8), attributes: [.posixPermissions: 0o600]))
        let login = try await authctl.run(["login", api, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
        let data = try await authctl.run(["request", "\(api)/items"])
        #expect(data.status == 0 && data.stdout == "the data of \(first.issuer)", "\(data.stderr)")
    }

    /// The resource's metadata names the second server from now on.
    func move() { current.withLock { $0 = second.issuer } }

    @Test(
        "R1: a 401 from a resource that names another server, nobody at the terminal (a browser command alone is no consent): exit 18 naming `authctl login URL` and both servers; keystore and config unchanged"
    )
    func refusedWithoutTerminal() async throws {
        try await signInAtFirst()
        move()
        let keystore = authctl.keystoreBytes()
        let config = FileManager.default.contents(atPath: authctl.configPath)
        for extra in [[], ["--browser-command", Self.browserCommand]] {
            let result = try await authctl.run(["request", "\(api)/items", "--timeout", "20"] + extra)
            #expect(result.status == 18, "\(extra): \(result.status) \(result.stderr)")
            for named in ["authctl login \(api)", first.issuer, second.issuer] {
                #expect(result.stderr.contains(named), "names \(named): \(result.stderr)")
            }
            #expect(result.stdout.isEmpty)
        }
        #expect(second.count("authorize") == 0 && second.count("token") == 0, "nothing signed in at the second server")
        #expect(first.count("refresh") == 0, "no refresh at a server the resource no longer names")
        #expect(authctl.keystoreBytes() == keystore, "the keystore is byte for byte as it was")
        #expect(FileManager.default.contents(atPath: authctl.configPath) == config)
    }

    @Test("R1: a no at the terminal: exit 18, nothing signed in, keystore unchanged")
    func refusedByThePerson() async throws {
        try await signInAtFirst()
        move()
        let keystore = authctl.keystoreBytes()
        let result = try await authctl.run(["request", "\(api)/items", "--timeout", "20"], stdin: Data("n\n".utf8), terminals: .all)
        #expect(result.status == 18, "\(result.stderr)")
        #expect(
            result.stderr.contains("now names the authorization server \(second.issuer) instead of \(first.issuer)"), "\(result.stderr)")
        #expect(second.count("authorize") == 0)
        #expect(authctl.keystoreBytes() == keystore)
    }

    @Test(
        "R1: a yes at the terminal: signed in at the second server, the request sent again once with its token and answered; the first grant kept; the first token never sent after the move"
    )
    func movedWithConsent() async throws {
        try await signInAtFirst()
        move()
        let sentBefore = received.withLock { $0.count }
        let result = try await authctl.run(["request", "\(api)/items", "--timeout", "20"], stdin: Data("y\n".utf8), terminals: .all)
        #expect(result.status == 0 && result.stdout == "the data of \(second.issuer)", "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("? ") || result.stderr.contains("[y/N]"), "the person was asked: \(result.stderr)")
        #expect(second.count("authorize") == 1 && first.count("refresh") == 0)
        let sent = received.withLock { Array($0.dropFirst(sentBefore)) }
        #expect(sent.count == 2, "the old token once (the 401), the new one once: \(sent.count)")
        #expect(sent.first.map(first.issuedSecrets.contains) == true && sent.last.map(second.issuedSecrets.contains) == true)
        let after = try await authctl.run(["request", "\(api)/items"])
        #expect(after.status == 0 && after.stdout == "the data of \(second.issuer)", "\(after.stderr)")
        let last = received.withLock { $0.last }
        #expect(last.map(second.issuedSecrets.contains) == true, "after the move, the second server's token")
        let state = try FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).read()
        let issuers = Set(state.users.flatMap(\.resourceGrants).map(\.issuer))
        #expect(issuers == [first.issuer, second.issuer], "a grant per (issuer, resource): \(issuers)")
    }

    @Test(
        "R1: a resource that names yet another server right after the move is not followed: exit 22 naming `authctl login URL`, the third server never contacted"
    )
    func movedOncePerRequest() async throws {
        try await signInAtFirst()
        move()
        restless.withLock { $0 = true }
        let result = try await authctl.run(["request", "\(api)/items", "--timeout", "20"], stdin: Data("y\n".utf8), terminals: .all)
        #expect(result.status == 22, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("one move per request") && result.stderr.contains("authctl login \(api)"), "\(result.stderr)")
        #expect(result.stderr.contains(Self.third) && second.count("authorize") == 1, "\(result.stderr)")
    }

    @Test(
        "R2: a grant that cannot be renewed, at a resource that names another server now: request passes the grant's issuer to the sign-in, so a browser command alone moves nothing (18)"
    )
    func renewalFailedMovesOnlyWithConsent() async throws {
        // Tokens that need a refresh at once (less than the 60 s authctl asks), which the first server refuses.
        first.update { $0.accessTokenLifetime = .number(30) }
        try await signInAtFirst()
        first.update { $0.refreshError = "invalid_grant" }
        move()
        let keystore = authctl.keystoreBytes()
        let result = try await authctl.run(["request", "\(api)/items", "--browser-command", Self.browserCommand, "--timeout", "20"])
        #expect(result.status == 18, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("authctl login \(api)") && result.stderr.contains(second.issuer), "\(result.stderr)")
        #expect(second.count("authorize") == 0, "nothing signed in at the second server")
        #expect(authctl.keystoreBytes() == keystore)
    }
}

/// A value a test server's threads and the test share.
final class Shared<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>
    init(_ value: Value) { stored = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { stored.withLock { body(&$0) } }
}
