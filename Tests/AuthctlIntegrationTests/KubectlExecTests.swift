import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl token --format kubectl-exec` as kubectl runs it: the API server's OIDC
/// authenticator validates ID tokens (`--oidc-client-id` is their audience), so that is
/// what it prints unless the access token is asked for.
@Suite("kubectl's exec credential", .serialized)
final class KubectlExecTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        let added = try await authctl.run(["providers", "add", "oidc.k8s", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(added.status == 0, "\(added.stderr)")
        let login = try await authctl.run(["login", "oidc.k8s", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    /// The payload of a compact JWS, unverified (the test only reads what authctl printed).
    static func payload(of jwt: String) -> [String: JSONValue]? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1]).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap(JSONValue.object(from:))
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    @Test("a stock API server gets the ID token: the exec credential carries a JWT whose audience is the client id, and its expiry")
    func idTokenByDefault() async throws {
        try await signIn()
        let result = try await authctl.run(["token", "oidc.k8s", "--format", "kubectl-exec"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.json?["kind"] == "ExecCredential")
        #expect(result.json?["apiVersion"] == "client.authentication.k8s.io/v1")
        let status = try #require(result.json?["status"]?.objectValue)
        let token = try #require(status["token"]?.stringValue)
        let claims = try #require(Self.payload(of: token), "the token is a JWT: \(token.prefix(8))…")
        #expect(claims["aud"] == .string(provider.clientID))
        #expect(claims["iss"] == .string(provider.issuer))
        let exp = try #require(claims["exp"]?.numberValue)
        #expect(status["expirationTimestamp"] == .string(Self.rfc3339(Date(timeIntervalSince1970: exp))))
        // The same through ArgumentParser's path (an option the fast parser hands over).
        let slow = try await authctl.run(["token", "oidc.k8s", "--format", "kubectl-exec", "-vq"])
        #expect(slow.json?["status"]?.objectValue?["token"] == .string(token))
    }

    @Test("--access-token puts the access token in the exec credential instead, with the access token's expiry")
    func accessTokenWhenAsked() async throws {
        try await signIn()
        let json = try await authctl.run(["token", "oidc.k8s", "--format", "json"])
        let accessToken = try #require(json.json?["accessToken"]?.stringValue)
        let expiresAt = try #require(json.json?["expiresAt"]?.stringValue)
        for arguments in [["--access-token"], ["--access-token", "-vq"]] {
            let result = try await authctl.run(["token", "oidc.k8s", "--format", "kubectl-exec"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let status = try #require(result.json?["status"]?.objectValue)
            #expect(status["token"] == .string(accessToken), "\(arguments)")
            #expect(status["expirationTimestamp"] == .string(expiresAt), "\(arguments)")
        }
        let both = try await authctl.run(["token", "oidc.k8s", "--access-token", "--id-token"])
        #expect(both.status == 2 && both.stdout.isEmpty, "\(both.stderr)")
    }

    @Test("the kubeconfig's exec entry reaches the configuration through --config or AUTHCTL_CONFIG, from another directory")
    func configurationFromTheKubeconfig() async throws {
        try await signIn()
        // kubectl runs the plugin with its own environment plus the entry's `env`; XDG_CONFIG_HOME
        // pointing elsewhere stands for a kubectl run by a job whose home is not the user's.
        let elsewhere = ["XDG_CONFIG_HOME": authctl.home + "/nowhere"]
        // --force-refresh: a refresh needs the provider's configuration (a cached token does not).
        let lost = try await authctl.run(["token", "oidc.k8s", "--format", "kubectl-exec", "--force-refresh"], environment: elsewhere)
        #expect(lost.status != 0 && lost.stdout.isEmpty)
        let byOption = try await authctl.run(
            ["token", "oidc.k8s", "--format", "kubectl-exec", "--force-refresh", "--config", authctl.configPath], environment: elsewhere)
        #expect(byOption.status == 0, "\(byOption.stderr)")
        let byEnvironment = try await authctl.run(
            ["token", "oidc.k8s", "--format", "kubectl-exec", "--force-refresh"],
            environment: elsewhere.merging(["AUTHCTL_CONFIG": authctl.configPath]) { $1 })
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
    }
}
