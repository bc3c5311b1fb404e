import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `login PROVIDER --jwt-bearer` (issue 39 item 7, docs/ci.md): workload identity federation
/// by the RFC 7523 §2.1 JWT-bearer authorization grant — the workload's token from a trusted
/// issuer is the grant (`assertion`), the client authenticates as registered or not at all.
@Suite("a workload signs in by the JWT-bearer grant", .serialized)
final class WorkloadJWTBearerTests {
    let provider: FakeIdentityProvider
    let ci: FakeFederatedIssuer
    let authctl = InProcessAuthctl()
    let clientID = "wif-agent"
    let subject = "system:serviceaccount:ci:agent"
    let secret = "s3cr3t-" + UUID().uuidString

    init() throws {
        provider = try FakeIdentityProvider()
        ci = try FakeFederatedIssuer()
        // RFC 7523 §3: the assertion's audience identifies the authorization server.
        let federation = WorkloadRegistration.Federation(issuer: ci, subject: subject, audience: provider.issuer)
        provider.behaviour.workloads = [
            WorkloadRegistration(clientID: clientID, federation: federation),
            WorkloadRegistration(clientID: "wif-confidential", secret: secret, federation: federation),
        ]
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func write(_ text: String, to name: String = "federated-token") -> String {
        let path = authctl.home + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    func login(_ extra: [String], environment: [String: String] = [:]) async throws -> InProcessAuthctl.Result {
        try await authctl.run(["login", "oidc.fake", "--jwt-bearer", "--client-id", clientID] + extra, environment: environment)
    }

    @Test("--jwt-bearer --federated-token-file, a public client: the grant, token re-runs it reading the file again, status says so")
    func publicClient() async throws {
        try await authctl.addFakeProvider(provider)
        let first = ci.token(subject: subject, audience: provider.issuer)
        let file = write(first)
        let signedIn = try await login(["--federated-token-file", file, "--scope", "mcp:tools", "--json"])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(provider.count("jwt_bearer") == 1 && provider.count("client_credentials") == 0)
        let identity = signedIn.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue
        #expect(identity?["grant"] == .string("jwt-bearer"), "\(signedIn.stdout)")
        #expect(identity?["authentication"]?.stringValue?.contains(file) == true, "\(signedIn.stdout)")
        let stored = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!stored.contains(first) && stored.contains("\"jwt-bearer\""))

        // The assertion is single-use at a real server: the renewal reads the file again.
        _ = write(ci.token(subject: subject, audience: provider.issuer))
        let renewed = try await authctl.run(["token", "--force-refresh"])
        #expect(renewed.status == 0 && renewed.stdout.hasPrefix("wat-"), "\(renewed.stderr)")
        #expect(provider.count("jwt_bearer") == 2)
        let status = try await authctl.run(["status"])
        #expect(status.stdout.contains("JWT-bearer grant"), "\(status.stdout)")
    }

    @Test("a refused assertion is exit 4 with the server's error, and the keystore stays as it was")
    func refused() async throws {
        try await authctl.addFakeProvider(provider)
        let file = write(ci.token(subject: subject, audience: provider.issuer))
        #expect(try await login(["--federated-token-file", file]).status == 0)
        let before = authctl.keystoreBytes()
        let replayed = try await authctl.run(["token", "--force-refresh"])
        #expect(replayed.status == 4 && replayed.stderr.contains("invalid_grant"), "\(replayed.stderr)")
        _ = write(ci.token(subject: "system:serviceaccount:ci:evil", audience: provider.issuer))
        let other = try await authctl.run(["token", "--force-refresh"])
        #expect(other.status == 4 && other.stderr.contains("invalid_grant"), "\(other.stderr)")
        #expect(authctl.keystoreBytes() == before, "nothing stored")
    }

    @Test("a confidential client: its secret authenticates it, the workload's token is the grant; a wrong secret is exit 4")
    func confidentialClient() async throws {
        try await authctl.addFakeProvider(provider)
        let file = write(ci.token(subject: subject, audience: provider.issuer))
        let arguments = [
            "login", "oidc.fake", "--jwt-bearer", "--client-id", "wif-confidential", "--federated-token-file", file, "--client-secret-env",
            "WIF_SECRET",
        ]
        let wrong = try await authctl.run(arguments, environment: ["WIF_SECRET": "nope"])
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(authctl.keystoreBytes() == nil)
        let signedIn = try await authctl.run(arguments + ["--json"], environment: ["WIF_SECRET": secret])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(!signedIn.stdout.contains(secret) && !signedIn.stderr.contains(secret))
    }

    @Test("bad combinations are exit 2 naming the next step, before anything is sent")
    func badCombinations() async throws {
        try await authctl.addFakeProvider(provider)
        let file = write(ci.token(subject: subject, audience: provider.issuer))
        let cases: [([String], String)] = [
            (["--jwt-bearer"], "--federated-token-file"),
            (["--jwt-bearer", "--client-credentials", "--federated-token-file", file], "--client-credentials"),
            (["--jwt-bearer", "--federated-token-file", file, "--federated-token-env", "T"], "one federated token"),
            (["--jwt-bearer", "--federated-token-file", file, "--client-secret-env", "A", "--certificate-file", file], "one way"),
            (["--jwt-bearer", "--federated-token-file", file, "--device-code"], "--device-code"),
        ]
        for (extra, named) in cases {
            let result = try await authctl.run(["login", "oidc.fake", "--client-id", clientID] + extra)
            #expect(result.status == 2 && result.stderr.contains(named), "\(extra): \(result.stderr)")
        }
        #expect(provider.count("jwt_bearer") == 0 && authctl.keystoreBytes() == nil)
    }
}
