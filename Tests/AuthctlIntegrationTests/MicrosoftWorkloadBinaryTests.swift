import AuthCore
import AuthCoreTestSupport
import Crypto
import Foundation
import Testing
import _CryptoExtras

/// A workload at Microsoft Entra ID (docs/ci.md, docs/microsoft.md): a tenant of its
/// own, Graph's `.default` by default, the certificate's `x5t#S256`, the Actions audience
/// `api://AzureADTokenExchange`, and the AADSTS errors of app credentials worded as fixes.
@Suite("workloads at Microsoft Entra ID", .serialized)
final class MicrosoftWorkloadBinaryTests {
    let microsoft: FakeMicrosoft
    let ci: FakeFederatedIssuer
    let authctl = AuthctlProcess()
    let appID = "0f4c7b3e-8a1d-4e55-9d2c-1b6f0a3e9c71"
    let secret = "ms-secret-" + UUID().uuidString
    let subject = "repo:octo/app:ref:refs/heads/main"
    let tenant = FakeMicrosoft.contosoTenantID

    init() throws {
        microsoft = try FakeMicrosoft()
        ci = try FakeFederatedIssuer()
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp(_ registration: WorkloadRegistration) async throws {
        microsoft.behaviour.workloads = [registration]
        let added = try await authctl.run([
            "providers", "add", "microsoft.com", "--client-id", microsoft.clientID, "--authority-host", microsoft.host, "--graph-host",
            microsoft.graphHost,
        ])
        #expect(added.status == 0, "\(added.stderr)")
    }

    func login(_ extra: [String], environment: [String: String] = [:]) async throws -> AuthctlProcess.Result {
        try await authctl.run(
            ["login", "microsoft", "--tenant", tenant, "--client-id", appID, "--client-credentials"] + extra, environment: environment)
    }

    @Test("a client secret: Graph's .default by default, a tenant of its own, the identity's issuer is the tenant's")
    func secret() async throws {
        try await setUp(WorkloadRegistration(clientID: appID, secret: secret))
        let common = try await authctl.run(
            ["login", "microsoft", "--client-id", appID, "--client-credentials", "--client-secret-env", "AZ_SECRET"],
            environment: ["AZ_SECRET": secret])
        #expect(common.status == 2 && common.stderr.contains("--tenant"), "\(common.stderr)")
        let login = try await login(["--client-secret-env", "AZ_SECRET", "--json"], environment: ["AZ_SECRET": secret])
        #expect(login.status == 0, "\(login.stderr)")
        guard case .array(let identities)? = login.json?["user"]?.objectValue?["providerData"] else {
            Issue.record("\(login.stdout)")
            return
        }
        #expect(identities.first?.objectValue?["issuer"] == .string(microsoft.issuer(tenantID: tenant)))
        #expect(microsoft.tokenRequestForms.last?["scope"] == "\(microsoft.graphHost)/.default")
        let api = try await authctl.run(["token", "--scope", "api://authctl-test-api/.default"], environment: ["AZ_SECRET": secret])
        #expect(api.status == 0 && api.stdout.hasPrefix("wat-"), "\(api.stderr)")
        #expect(microsoft.tokenRequestForms.last?["scope"] == "api://authctl-test-api/.default")
    }

    @Test("AADSTS700016, 7000215, 70021, 700024: refused with exit 4, a message that says what to fix, nothing stored")
    func errors() async throws {
        try await setUp(
            WorkloadRegistration(
                clientID: appID, secret: secret, federation: .init(issuer: ci, subject: subject, audience: "api://AzureADTokenExchange")))
        let cases: [([String], [String: String], String, String)] = [
            (
                ["--client-id", "11111111-2222-3333-4444-555555555555", "--client-secret-env", "S"], ["S": secret], "AADSTS700016",
                "Application (client) ID"
            ),
            (
                ["--federated-token-env", "T"], ["T": ci.token(subject: subject, audience: "api://AzureADTokenExchange", expiresIn: -30)],
                "AADSTS700024", "expired"
            ),
            (
                ["--federated-token-env", "T"],
                ["T": ci.token(subject: "repo:octo/app:pull_request", audience: "api://AzureADTokenExchange")], "AADSTS70021",
                "Federated credentials"
            ),
        ]
        for (extra, environment, code, fix) in cases {
            let refused = try await login(extra, environment: environment)
            #expect(refused.status == 4 && refused.stderr.contains(code) && refused.stderr.contains(fix), "\(refused.stderr)")
            #expect(authctl.keystoreBytes() == nil, "nothing stored")
            #expect(!environment.values.contains { refused.stderr.contains($0) }, "no secret in the message")
        }
        // A registration with a federated credential has a secret too here: a wrong one is 7000215.
        microsoft.behaviour.workloads = [WorkloadRegistration(clientID: appID, secret: secret)]
        let wrong = try await login(["--client-secret-env", "S"], environment: ["S": "wrong-secret"])
        #expect(
            wrong.status == 4 && wrong.stderr.contains("AADSTS7000215") && wrong.stderr.contains("Certificates & secrets"),
            "\(wrong.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("GitHub Actions: the token is asked for api://AzureADTokenExchange by default")
    func githubActions() async throws {
        try await setUp(
            WorkloadRegistration(clientID: appID, federation: .init(issuer: ci, subject: subject, audience: "api://AzureADTokenExchange")))
        let actions = try FakeActionsTokenService(issuer: ci)
        let login = try await login(["--federated-token", "github-actions"], environment: actions.environment)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(actions.askedAudiences == ["api://AzureADTokenExchange"])
        #expect(microsoft.tokenRequestForms.last?["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    }

    @Test("a certificate: the assertion names it by x5t#S256; another certificate is AADSTS700027")
    func certificate() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let der = Data((0..<80).map { _ in UInt8.random(in: 0...255) })
        let thumbprint = Base64URL.encode(Data(SHA256.hash(data: der)))
        try await setUp(WorkloadRegistration(clientID: appID, key: .rsa(key.publicKey), certificateThumbprint: thumbprint))
        func pem(_ certificate: Data) -> String {
            let path = authctl.home + "/app-\(UUID().uuidString).pem"
            let text =
                key.pemRepresentation + "\n-----BEGIN CERTIFICATE-----\n\(certificate.base64EncodedString())\n-----END CERTIFICATE-----\n"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            return path
        }
        let other = try await login(["--certificate-file", pem(Data(der.reversed()))])
        #expect(other.status == 4 && other.stderr.contains("AADSTS700027"), "\(other.stderr)")
        let login = try await login(["--certificate-file", pem(der)])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try await authctl.run(["token", "--force-refresh"]).status == 0)
    }
}
