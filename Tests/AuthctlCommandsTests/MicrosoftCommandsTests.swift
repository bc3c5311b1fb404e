import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The commands, in-process, against the fake Microsoft identity platform, with a browser
/// following the 302 to `http://localhost:PORT/` into authctl's listener.
@Suite("authctl commands against the fake Microsoft", .serialized)
final class MicrosoftCommandsTests {
    let microsoft: FakeMicrosoft
    let authctl = InProcessAuthctl()

    init() throws { microsoft = try FakeMicrosoft() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addMicrosoft(_ extra: [String] = []) async throws -> InProcessAuthctl.Result {
        try await authctl.run(
            [
                "providers", "add", "microsoft.com", "--client-id", microsoft.clientID, "--authority-host", microsoft.host, "--graph-host",
                microsoft.host,
            ] + extra)
    }

    func login(_ extra: [String] = []) async throws -> InProcessAuthctl.Result {
        try await authctl.run(["login", "microsoft", "--timeout", "120"] + extra)
    }

    @Test("providers add, login --tenant, status, token, token --scope, users photo: the whole Microsoft session")
    func wholeSession() async throws {
        let added = try await addMicrosoft(["--tenant", "contoso.onmicrosoft.com"])
        #expect(added.status == 0, "\(added.stderr)")
        let shown = try await authctl.run(["providers", "show", "microsoft", "--json"])
        #expect(shown.json?["tenant"] == .string("contoso.onmicrosoft.com") && shown.json?["authorityHost"] == .string(microsoft.host))

        let login = try await login(["--tenant", "organizations", "--param", "login_hint=meganb@contoso.onmicrosoft.com", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        let identity = login.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue
        #expect(identity?["federatedId"] == .string(FakeMicrosoft.Account.work.objectID))
        #expect(identity?["issuer"] == .string(microsoft.issuer(tenantID: FakeMicrosoft.contosoTenantID)))
        #expect(login.json?["user"]?.objectValue?["email"] == .string("megan.bowen@contoso.com"), "from Graph")
        #expect(microsoft.lastAuthorizationRequest["redirect_uri"]?.hasPrefix("http://localhost:") == true)
        #expect(microsoft.lastAuthorizationRequest["login_hint"] == "meganb@contoso.onmicrosoft.com")

        let status = try await authctl.run(["status", "--json"])
        #expect(status.status == 0 && status.json?["signedIn"] == .bool(true))

        let calls = microsoft.count("token") + microsoft.count("discovery")
        let token = try await authctl.run(["token"])
        #expect(token.status == 0 && token.stdout.hasPrefix("at-") && microsoft.count("token") + microsoft.count("discovery") == calls)

        let scoped = try await authctl.run(["token", "microsoft", "--scope", "api://authctl-test-api/access_as_user", "--format", "json"])
        #expect(scoped.status == 0, "\(scoped.stderr)")
        #expect(scoped.json?["scopes"] == .array([.string("api://authctl-test-api/access_as_user")]))
        let scopedToken = scoped.json?["accessToken"]?.stringValue
        #expect(scopedToken != nil && scopedToken != token.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let tokenCalls = microsoft.count("token")
        let again = try await authctl.run(["token", "--scope", "api://authctl-test-api/access_as_user"])
        #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == scopedToken)
        #expect(microsoft.count("token") == tokenCalls, "the cached per-scope token needs no network")
        let keystore = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(keystore.contains("additionalTokens") && keystore.contains("\"version\" : 1"))

        let file = authctl.home + "/me.jpg"
        let photo = try await authctl.run(["users", "photo", "--output", file])
        #expect(photo.status == 0, "\(photo.stderr)")
        #expect(FileManager.default.contents(atPath: file) == FakeMicrosoft.Account.work.photo)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let piped = try await authctl.run(["users", "photo"])
        #expect(piped.status == 0 && Data(piped.stdout.utf8).count > 0)
        let jsonWithoutFile = try await authctl.run(["users", "photo", "--json"])
        #expect(jsonWithoutFile.status == 2)

        let logged = [login, status, token, scoped, again, photo].map { $0.stderr }.joined()
        for secret in microsoft.issuedSecrets { #expect(!logged.contains(secret), "a secret leaked: \(secret.prefix(8))…") }
    }

    @Test("a token from another tenant than the one asked exits 17 and leaves the keystore byte-identical")
    func tenantMismatch() async throws {
        #expect(try await addMicrosoft().status == 0)
        #expect(try await login().status == 0)
        let before = try #require(authctl.keystoreBytes())
        microsoft.update {
            $0.account = .otherTenant
            $0.enforceTenantRules = false
        }
        let refused = try await login(["--tenant", FakeMicrosoft.contosoTenantID, "--json"])
        #expect(refused.status == 17, "\(refused.stderr)")
        #expect(refused.json?["error"]?.objectValue?["code"] == .string("tenant-id-mismatch"))
        #expect(refused.stderr.split(separator: "\n").filter { $0.hasPrefix("authctl: ") }.count == 1)
        #expect(authctl.keystoreBytes() == before)
    }

    @Test(
        "bad Microsoft options exit 2 naming the problem",
        arguments: [
            (["providers", "add", "microsoft.com", "--tenant", "contoso"], "common, organizations, consumers"),
            (["providers", "add", "microsoft.com", "--authority-host", "http://login.microsoftonline.com"], "https://"),
            (["providers", "add", "oidc.x", "--issuer", "https://idp.example", "--tenant", "common"], "microsoft.com only"),
            (["login", "microsoft", "--tenant", "no tenant"], "--tenant"),
        ])
    func usage(arguments: [String], mention: String) async throws {
        #expect(try await addMicrosoft().status == 0)
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(mention), "\(result.stderr)")
    }
}
