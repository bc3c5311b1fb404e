import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `providers add` checks what it can before saving (issue 15, item 7): each mistake is
/// refused with the rule, and nothing is written.
@Suite("providers add checks what it can")
struct ProvidersAddChecksTests {
    @Test(
        "a mistake in providers add is refused with the rule, and the configuration is not written",
        arguments: [
            (["oidc.x", "--issuer", "https://idp.example"], Int32(2), "--client-id"),
            (["oidc.x", "--client-id", "c"], 2, "--issuer"),
            (
                [
                    "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-env", "S", "--client-secret-file",
                    "/f",
                ], 2,
                "exclude each other"
            ),
            (
                ["oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-file", "/nonexistent/secret"], 7,
                "/nonexistent/secret"
            ),
            (
                ["oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--tenant", "common"], 2,
                "--tenant applies to microsoft.com"
            ),
            (["microsoft.com", "--client-id", "c", "--team-id", "ABCDEFGHIJ"], 2, "--team-id applies to apple.com"),
            (["microsoft.com", "--client-id", "c", "--issuer", "https://idp.example"], 2, "--issuer applies to"),
            (["apple.com", "--client-id", "com.example.signin"], 2, "--team-id"),
            (
                ["apple.com", "--client-id", "com.example.signin", "--team-id", "ABCDEFGHIJ", "--key-id", "KEY1234567"], 2,
                "--private-key-file"
            ),
            (["apple.com", "--team-id", "ABCDEFGHIJ"], 2, "--client-id"),
        ])
    func refused(arguments: [String], exit: Int32, rule: String) async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["providers", "add"] + arguments)
        #expect(result.status == exit, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(rule), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath), "\(arguments): nothing saved")
    }

    @Test("a secret file that exists and is private is accepted; an update of a complete provider needs no repeat of --client-id")
    func accepted() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let secret = authctl.home + "/secret"
        _ = FileManager.default.createFile(atPath: secret, contents: Data("s3cret".utf8), attributes: [.posixPermissions: 0o600])
        let add = try await authctl.run([
            "providers", "add", "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-file", secret,
            "--no-check",
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let update = try await authctl.run(["providers", "add", "oidc.x", "--scope", "offline_access", "--no-check"])
        #expect(update.status == 0, "\(update.stderr)")
    }
}

/// `providers add` fetches the issuer's discovery document before saving (issue 25, item 11):
/// a provider that cannot be reached or whose document cannot be used is not saved, and the
/// error names the exact URL tried (scheme, host, port, path). `--no-check` saves without it.
@Suite("providers add checks the issuer's discovery document")
struct ProvidersAddDiscoveryCheckTests {
    /// An issuer on a loopback port nobody listens on (a server started, then stopped).
    static func closedIssuer() throws -> String {
        let server = try LoopbackHTTPServer { _ in HTTPResponse(status: 404) }
        server.stop()
        return server.baseURL + "/idp"
    }

    @Test("an unreachable issuer is refused with exit 3, the exact discovery URL and the way to save it offline; nothing is saved")
    func unreachable() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let issuer = try Self.closedIssuer()
        let result = try await authctl.run(["providers", "add", "oidc.x", "--issuer", issuer, "--client-id", "c"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains(issuer + "/.well-known/openid-configuration"), "\(result.stderr)")
        #expect(result.stderr.contains("--no-check"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
        let offline = try await authctl.run(["providers", "add", "oidc.x", "--issuer", issuer, "--client-id", "c", "--no-check"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(FileManager.default.fileExists(atPath: authctl.configPath))
    }

    @Test("a discovery document naming another issuer is refused with exit 7 and the URL tried; nothing is saved")
    func lyingIssuer() async throws {
        let provider = try FakeIdentityProvider()
        provider.update { $0.discoveryIssuer = "https://other.example" }
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["providers", "add", "oidc.x", "--issuer", provider.issuer, "--client-id", "c"])
        #expect(result.status == 7, "\(result.stderr)")
        #expect(result.stderr.contains(provider.issuer + "/.well-known/openid-configuration"), "\(result.stderr)")
        #expect(result.stderr.contains("https://other.example"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
    }

    @Test("a discovery document that is not one (HTTP 404) is refused, naming the URL with its port")
    func notFound() async throws {
        let provider = try FakeIdentityProvider(basePath: "/realms/x")
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let wrong = provider.server.baseURL + "/realms/y"
        let result = try await authctl.run(["providers", "add", "oidc.x", "--issuer", wrong, "--client-id", "c"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains(wrong + "/.well-known/openid-configuration"), "\(result.stderr)")
        // Issue 38, item 13: the URL once, with its port (not again as host and path without it).
        #expect(result.stderr.components(separatedBy: "/realms/y/.well-known/openid-configuration").count == 2, "\(result.stderr)")
        #expect(provider.count("discovery") == 0)
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
        // A sign-in that meets the 404 names it the same way.
        _ = try await authctl.run(["providers", "add", "oidc.x", "--issuer", wrong, "--client-id", "c", "--no-check"])
        let login = try await authctl.run(["login", "oidc.x", "--no-browser", "--timeout", "1"])
        #expect(login.status == 3 && login.stderr.contains(wrong + "/.well-known/openid-configuration"), "\(login.stderr)")
    }

    @Test("a reachable provider with a usable document is saved, and its document was fetched")
    func reachable() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["providers", "add", "oidc.x", "--issuer", provider.issuer, "--client-id", "c"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(provider.count("discovery") == 1)
    }

    @Test("stored scopes, parameters, listen address, redirect URI and secret source can be cleared")
    func clear() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let add = try await authctl.run([
            "providers", "add", "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--scope", "offline_access",
            "--param", "prompt=consent", "--listen-address", "127.0.0.1:8765", "--redirect-uri", "http://127.0.0.1:8765/callback",
            "--client-secret-env", "X_SECRET", "--no-check",
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let clear = try await authctl.run([
            "providers", "add", "oidc.x", "--clear-scopes", "--clear-params", "--clear-listen-address", "--clear-redirect-uri",
            "--clear-client-secret", "--no-check",
        ])
        #expect(clear.status == 0, "\(clear.stderr)")
        let shown = try await authctl.run(["providers", "show", "oidc.x", "--json"])
        let json = try #require(shown.json)
        #expect(json["scopes"] == .array([]))
        #expect(json["parameters"] == .object([:]))
        #expect(json["listenAddress"] == nil && json["redirectUri"] == nil && json["clientSecretEnv"] == nil, "\(shown.stdout)")
        #expect(json["clientId"] == .string("c"))
        let both = try await authctl.run(["providers", "add", "oidc.x", "--scope", "a", "--clear-scopes", "--no-check"])
        #expect(both.status == 2, "\(both.stderr)")
    }
}
