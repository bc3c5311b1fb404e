import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The real binary and a protected resource (docs/resources.md): `login URL` with a provider
/// configured for the resource's server, `request` through libcurl, the exit statuses of a
/// step-up without a person (21) and of an HTTP error (22), and no token on stderr.
@Suite("authctl and a protected resource", .serialized)
final class ResourceBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()
    let resource: LoopbackHTTPServer
    /// The paths the resource was sent a token for.
    let seen = SeenPaths()

    init() throws {
        let provider = try FakeIdentityProvider()
        self.provider = provider
        let seen = self.seen
        resource = try LoopbackHTTPServer { request in
            let base = "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "0")"
            let metadata = #"resource_metadata="\#(base)/.well-known/oauth-protected-resource/api""#
            if request.path == "/.well-known/oauth-protected-resource/api" {
                let body = #"{"resource": "\#(base)/api", "authorization_servers": ["\#(provider.issuer)"], "scopes_supported": ["read"]}"#
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            }
            guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer at-") else {
                return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer \(metadata)"])
            }
            seen.add(request.path)
            switch request.path {
            case "/api/admin":
                return HTTPResponse(status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="read write""#])
            case "/api/missing":
                return HTTPResponse(status: 404, body: Data("no such item".utf8))
            default:
                return HTTPResponse(status: 200, body: Data("the data".utf8))
            }
        }
    }

    deinit {
        resource.stop()
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    @Test("login URL, request, a step-up without a person (21), an HTTP error (22), a URL without a grant (13)")
    func loginAndRequest() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0, "\(add.stderr)")
        let api = "\(resource.baseURL)/api"
        // The resource is on another origin than oidc.fake's issuer: without consent nothing happens (18).
        let refused = try await authctl.run(["login", api, "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(refused.status == 18, "\(refused.stderr)")
        #expect(refused.stderr.contains("authctl login \(api) --provider oidc.fake"), "\(refused.stderr)")
        let login = try await authctl.run([
            "login", api, "--provider", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20", "--json",
        ])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains(#""resource":"\#(api)""#) || login.stdout.contains(#""resource" : "\#(api)""#), "\(login.stdout)")
        let data = try await authctl.run(["request", "\(api)/items"])
        #expect(data.status == 0 && data.stdout == "the data", "\(data.stderr)")
        let stepUp = try await authctl.run(["request", "\(api)/admin"])
        #expect(stepUp.status == 21, "\(stepUp.stderr)")
        #expect(stepUp.stderr.contains("authctl login \(api) --scope"), "\(stepUp.stderr)")
        // A browser but no person: the borrowed provider's scopes do not grow without consent (18).
        let widened = try await authctl.run([
            "request", "\(api)/admin", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20",
        ])
        #expect(widened.status == 18, "\(widened.stderr)")
        #expect(widened.stderr.contains("--provider oidc.fake --scope") && widened.stderr.contains("--scope write"), "\(widened.stderr)")
        let missing = try await authctl.run(["request", "\(api)/missing"])
        #expect(missing.status == 22 && missing.stdout == "no such item", "\(missing.stderr)")
        let elsewhere = try await authctl.run(["request", "\(resource.baseURL)/apix"])
        #expect(elsewhere.status == 13, "\(elsewhere.stderr)")
        #expect(!seen.paths.contains("/apix"), "no token sent outside the resource")
        let token = try await authctl.run(["token", "--resource", api])
        #expect(token.status == 0 && token.stdout.hasPrefix("at-"))
        for result in [login, data, stepUp, missing, elsewhere] {
            #expect(!result.stderr.contains(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }
}

extension ResourceBinaryTests {
    @Test("AUTHCTL_BROWSER steps up without a terminal as --browser-command does (issue 38, item 5)")
    func browserVariableStepsUp() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0, "\(add.stderr)")
        let api = "\(resource.baseURL)/api"
        let login = try await authctl.run([
            "login", api, "--provider", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20",
        ])
        #expect(login.status == 0, "\(login.stderr)")
        // The variable, as the option: a browser but no person, so the widened borrowed scopes need consent (18), not 21.
        let widened = try await authctl.run(
            ["request", "\(api)/admin", "--timeout", "20"], environment: ["AUTHCTL_BROWSER": AuthctlProcess.browserCommand])
        #expect(widened.status == 18, "\(widened.stderr)")
        #expect(widened.stderr.contains("--provider oidc.fake --scope"), "\(widened.stderr)")
    }
}

/// What a test server saw, from its threads.
final class SeenPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ path: String) { lock.withLock { stored.append(path) } }
    var paths: [String] { lock.withLock { stored } }
}
