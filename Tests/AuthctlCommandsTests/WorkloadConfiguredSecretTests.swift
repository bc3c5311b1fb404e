import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `login --client-credentials` without a credential option takes the client secret the
/// provider was configured with (`providers add … --client-secret-env VAR` or
/// `--client-secret-file PATH`), as someone who configured it once expects (issue 25, item 20).
@Suite("a workload signs in with the provider's configured secret", .serialized)
final class WorkloadConfiguredSecretTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()
    let secret = "s3cr3t-" + UUID().uuidString
    let clientID = "ci-workload"

    init() throws {
        provider = try FakeIdentityProvider()
        provider.behaviour.workloads = [WorkloadRegistration(clientID: clientID, secret: secret)]
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func add(_ extra: [String]) async throws {
        let added = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", clientID] + extra)
        #expect(added.status == 0, "\(added.stderr)")
    }

    func authentication(_ result: InProcessAuthctl.Result) -> JSONValue? {
        result.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue?["authentication"]
    }

    @Test("configured with --client-secret-env: login --client-credentials alone signs in, and token runs the grant again")
    func configuredEnvironment() async throws {
        try await add(["--client-secret-env", "CI_SECRET"])
        let login = try await authctl.run(["login", "oidc.fake", "--client-credentials", "--json"], environment: ["CI_SECRET": secret])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(authentication(login) == .string("client secret from $CI_SECRET"), "\(login.stdout)")
        #expect(!login.stdout.contains(secret) && !login.stderr.contains(secret))
        let token = try await authctl.run(["token", "--force-refresh"], environment: ["CI_SECRET": secret])
        #expect(token.status == 0 && !token.stdout.isEmpty, "\(token.stderr)")
    }

    @Test("configured with --client-secret-file: login --client-credentials alone signs in with that file")
    func configuredFile() async throws {
        let file = authctl.home + "/client-secret"
        try Data(secret.utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        try await add(["--client-secret-file", file])
        let login = try await authctl.run(["login", "oidc.fake", "--client-credentials", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(authentication(login)?.stringValue?.contains(file) == true, "\(login.stdout)")
    }

    @Test("nothing configured and no option: exit 2 naming the options and providers add, nothing stored")
    func nothingConfigured() async throws {
        try await add([])
        let login = try await authctl.run(["login", "oidc.fake", "--client-credentials"])
        #expect(login.status == 2, "\(login.stderr)")
        #expect(login.stderr.contains("--client-secret-env") && login.stderr.contains("--federated-token-file"), "\(login.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("an option given on the command line wins over the configured secret")
    func optionWins() async throws {
        try await add(["--client-secret-env", "NOT_SET_ANYWHERE"])
        let login = try await authctl.run(
            ["login", "oidc.fake", "--client-credentials", "--client-secret-env", "CI_SECRET", "--json"],
            environment: ["CI_SECRET": secret])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(authentication(login) == .string("client secret from $CI_SECRET"))
    }
}
