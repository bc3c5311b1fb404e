import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `providers add google|gitlab|okta|auth0|keycloak` (issue 25, item 22): the preset chooses
/// the provider id and builds the issuer from the documented pattern; tests give a loopback
/// `--domain http://127.0.0.1:PORT` (plain http is allowed on loopback only), so the same
/// path is built as for `https://DOMAIN`.
@Suite("provider presets")
struct ProviderPresetsTests {
    static func shown(_ authctl: InProcessAuthctl, _ id: String) async throws -> [String: JSONValue] {
        let shown = try await authctl.run(["providers", "show", id, "--json"])
        return try #require(shown.json, "\(shown.stderr)")
    }

    @Test("keycloak: --domain and --realm make DOMAIN/realms/REALM, saved as oidc.keycloak after its discovery was checked")
    func keycloak() async throws {
        let provider = try FakeIdentityProvider(basePath: "/realms/demo")
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let add = try await authctl.run([
            "providers", "add", "keycloak", "--domain", provider.server.baseURL, "--realm", "demo", "--client-id", provider.clientID,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await Self.shown(authctl, "oidc.keycloak")["issuer"] == .string(provider.issuer))
        #expect(provider.count("discovery") == 1)
        let noRealm = try await authctl.run(["providers", "add", "keycloak", "--domain", provider.server.baseURL, "--client-id", "c"])
        #expect(noRealm.status == 2 && noRealm.stderr.contains("--realm"), "\(noRealm.stderr)")
    }

    @Test("okta: DOMAIN, or DOMAIN/oauth2/ID with --authorization-server; --domain is required")
    func okta() async throws {
        let org = try FakeIdentityProvider()
        let custom = try FakeIdentityProvider(basePath: "/oauth2/default")
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let add = try await authctl.run(["providers", "add", "okta", "--domain", org.server.baseURL, "--client-id", "c"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await Self.shown(authctl, "oidc.okta")["issuer"] == .string(org.issuer))
        let server = try await authctl.run([
            "providers", "add", "oidc.okta-api", "--preset", "okta", "--domain", custom.server.baseURL, "--authorization-server", "default",
            "--client-id", "c",
        ])
        #expect(server.status == 0, "\(server.stderr)")
        #expect(try await Self.shown(authctl, "oidc.okta-api")["issuer"] == .string(custom.issuer))
        let missing = try await authctl.run(["providers", "add", "oidc.okta-other", "--preset", "okta", "--client-id", "c", "--no-check"])
        #expect(missing.status == 2 && missing.stderr.contains("--domain"), "\(missing.stderr)")
    }

    @Test("auth0: the issuer keeps Auth0's trailing slash, and a sign-in passes the exact issuer checks with it")
    func auth0() async throws {
        let provider = try FakeIdentityProvider()
        provider.update {
            $0.discoveryIssuer = provider.issuer + "/"
            $0.idTokenIssuer = provider.issuer + "/"
        }
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let add = try await authctl.run([
            "providers", "add", "auth0", "--domain", provider.server.baseURL, "--client-id", provider.clientID,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await Self.shown(authctl, "oidc.auth0")["issuer"] == .string(provider.issuer + "/"))
        let login = try await authctl.run(["login", "oidc.auth0", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    @Test("google and gitlab have fixed issuers (gitlab: --domain for a self-managed instance); --issuer still overrides")
    func fixed() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        #expect(try await authctl.run(["providers", "add", "google", "--client-id", "c", "--no-check"]).status == 0)
        #expect(try await Self.shown(authctl, "oidc.google")["issuer"] == .string("https://accounts.google.com"))
        #expect(try await authctl.run(["providers", "add", "gitlab", "--client-id", "c", "--no-check"]).status == 0)
        #expect(try await Self.shown(authctl, "oidc.gitlab")["issuer"] == .string("https://gitlab.com"))
        let managed = try await authctl.run([
            "providers", "add", "oidc.work-gitlab", "--preset", "gitlab", "--domain", "gitlab.example.com", "--client-id", "c",
            "--no-check",
        ])
        #expect(managed.status == 0, "\(managed.stderr)")
        #expect(try await Self.shown(authctl, "oidc.work-gitlab")["issuer"] == .string("https://gitlab.example.com"))
        let fake = try FakeIdentityProvider()
        let overridden = try await authctl.run(["providers", "add", "google", "--issuer", fake.issuer, "--client-id", "c"])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(try await Self.shown(authctl, "oidc.google")["issuer"] == .string(fake.issuer))
        let update = try await authctl.run(["providers", "add", "google", "--scope", "offline_access"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try await Self.shown(authctl, "oidc.google")["issuer"] == .string(fake.issuer), "an update keeps the issuer")
    }

    @Test(
        "a preset option that does not fit is refused (exit 2) and nothing is saved",
        arguments: [
            (["google", "--domain", "x.example", "--client-id", "c"], "--domain"),
            (["oidc.x", "--domain", "x.example", "--client-id", "c"], "--preset"),
            (["okta", "--domain", "http://okta.example", "--client-id", "c"], "https://"),
            (["okta", "--domain", "https://okta.example/path", "--client-id", "c"], "--domain"),
            (["keycloak", "--domain", "kc.example", "--realm", "a/b", "--client-id", "c"], "--realm"),
            (["oidc.x", "--preset", "github", "--client-id", "c"], "keycloak"),
        ])
    func refused(arguments: [String], mention: String) async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["providers", "add"] + arguments + ["--no-check"])
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
    }
}
