import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Base URLs with a path (issue 15, item 1; docs/authctl.1): AD FS serves under `/adfs`, a gateway
/// may serve each provider under its own path. The fakes answer only under their paths, so
/// an endpoint built without the path fails.
@Suite("providers served under a base path", .serialized)
final class BasePathTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test("Microsoft under a gateway's paths: discovery, authorize, token, device code, Graph profile and photo all under them")
    func microsoft() async throws {
        let microsoft = try FakeMicrosoft(authorityPath: "/gateway/login", graphPath: "/gateway/graph")
        let added = try await authctl.run([
            "providers", "add", "microsoft.com", "--client-id", microsoft.clientID, "--authority-host", microsoft.host + "/",
            "--graph-host", microsoft.graphHost,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let login = try await authctl.run([
            "login", "microsoft", "--tenant", "organizations", "--timeout", "120",
            "--json",
        ])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(microsoft.count("discovery") >= 1 && microsoft.count("authorize") == 1 && microsoft.count("token") == 1)
        #expect(login.json?["user"]?.objectValue?["email"] == .string("megan.bowen@contoso.com"), "the Graph profile, under its path")
        #expect(microsoft.count("me") == 1)
        let photo = try await authctl.run(["users", "photo", "--output", authctl.home + "/photo.jpg"])
        #expect(photo.status == 0, "\(photo.stderr)")
        #expect(microsoft.count("photo") == 1)
        let device = try await authctl.run(["reauth", "microsoft", "--device-code", "--timeout", "120"])
        #expect(microsoft.count("devicecode") == 1, "\(device.stderr)")
    }

    @Test("Apple under a path of a test server: authorize, token, keys and revoke under it")
    func apple() async throws {
        let apple = try FakeApple(issuerPath: "/providers/apple")
        let keyFile = authctl.home + "/AuthKey_\(apple.keyID).p8"
        _ = FileManager.default.createFile(
            atPath: keyFile, contents: Data(apple.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600])
        let added = try await authctl.run([
            "providers", "add", "apple.com", "--issuer", apple.issuer + "/", "--client-id", apple.clientID, "--team-id", apple.teamID,
            "--key-id", apple.keyID, "--private-key-file", keyFile,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let login = try await authctl.run(["login", "apple", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(apple.count("authorize") == 1 && apple.count("token") == 1 && apple.count("keys") >= 1)
        let signout = try await authctl.run(["signout", "--revoke"])
        #expect(signout.status == 0 && apple.count("revoke") == 1, "\(signout.stderr)")
    }

    @Test(
        "a base URL with a query, a fragment or credentials is still refused, naming the option",
        arguments: [
            "https://login.example/base?x=1", "https://login.example/base#f", "https://user:pw@login.example/base",
        ])
    func stillRefused(url: String) async throws {
        let result = try await authctl.run(["providers", "add", "microsoft.com", "--client-id", "c", "--authority-host", url])
        #expect(result.status == 2 && result.stderr.contains("--authority-host"), "\(result.stderr)")
        #expect(!result.stderr.contains("pw@"), "credentials are not echoed")
    }
}
