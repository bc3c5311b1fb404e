import AuthCore
import AuthCoreTestSupport
import Crypto
import Foundation
import Testing
import _CryptoExtras

/// A workload authenticated without a stored secret (docs/ci.md): a
/// federated token from a second local issuer (a file, a variable, GitHub Actions' token
/// service), and `private_key_jwt` from a certificate file.
@Suite("workloads: federated tokens and private_key_jwt", .serialized)
final class WorkloadFederationBinaryTests {
    let provider: FakeIdentityProvider
    let ci: FakeFederatedIssuer
    let authctl = AuthctlProcess()
    let clientID = "ci-federated"
    let subject = "repo:octo/app:ref:refs/heads/main"
    let audience = "api://authctl-test"

    init() throws {
        provider = try FakeIdentityProvider()
        ci = try FakeFederatedIssuer()
        provider.behaviour.workloads = [
            WorkloadRegistration(
                clientID: clientID, federation: .init(issuer: ci, subject: subject, audience: audience))
        ]
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func write(_ text: String, to name: String, mode: Int = 0o600) -> String {
        let path = authctl.home + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return path
    }

    func login(_ extra: [String], environment: [String: String] = [:]) async throws -> AuthctlProcess.Result {
        try await authctl.run(["login", "oidc.fake", "--client-credentials", "--client-id", clientID] + extra, environment: environment)
    }

    @Test("--federated-token-file: sent as a jwt-bearer client assertion, read again at every grant, never stored")
    func tokenFile() async throws {
        try await authctl.addFakeProvider(provider)
        let first = ci.token(subject: subject, audience: audience)
        let file = write(first, to: "federated-token")
        let signedIn = try await login(["--federated-token-file", file])
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        let stored = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!stored.contains(first) && stored.contains("\"federatedTokenFile\""))

        // The CI service rotates the file: the next grant reads the new token.
        let expired = ci.token(subject: subject, audience: audience, expiresIn: -60)
        _ = write(expired, to: "federated-token")
        let before = authctl.keystoreBytes()
        let refused = try await authctl.run(["token", "--force-refresh"])
        #expect(refused.status == 4 && refused.stderr.contains("AADSTS700024"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(expired))
        #expect(authctl.keystoreBytes() == before, "nothing stored")
        _ = write(ci.token(subject: subject, audience: audience), to: "federated-token")
        let renewed = try await authctl.run(["token", "--force-refresh"])
        #expect(renewed.status == 0 && renewed.stdout.hasPrefix("wat-"), "\(renewed.stderr)")
    }

    @Test("a symbolic link to the token file is followed (Kubernetes projects it so)")
    func tokenFileSymlink() async throws {
        try await authctl.addFakeProvider(provider)
        let target = write(ci.token(subject: subject, audience: audience), to: "token-data")
        let link = authctl.home + "/token-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try await login(["--federated-token-file", link]).status == 0)
    }

    @Test("--federated-token-env; a token of another subject, audience or issuer key is refused (4) and nothing is stored")
    func tokenEnvironmentAndRefusals() async throws {
        try await authctl.addFakeProvider(provider)
        let cases: [(String, String)] = [
            (ci.token(subject: "repo:octo/app:ref:refs/heads/evil", audience: audience), "AADSTS70021"),
            (ci.token(subject: subject, audience: "api://other"), "AADSTS70021"),
            (ci.token(subject: subject, audience: audience, unpublishedKey: true), "AADSTS700211"),
        ]
        for (token, code) in cases {
            let refused = try await login(["--federated-token-env", "CI_JOB_JWT"], environment: ["CI_JOB_JWT": token])
            #expect(refused.status == 4 && refused.stderr.contains(code), "\(refused.stderr)")
            #expect(authctl.keystoreBytes() == nil, "nothing stored")
        }
        let notJWT = try await login(["--federated-token-env", "CI_JOB_JWT"], environment: ["CI_JOB_JWT": "<html>"])
        #expect(notJWT.status == 2, "\(notJWT.stderr)")
        let unset = try await login(["--federated-token-env", "CI_JOB_JWT"])
        #expect(unset.status == 7 && unset.stderr.contains("CI_JOB_JWT"), "\(unset.stderr)")
        let good = try await login(
            ["--federated-token-env", "CI_JOB_JWT"], environment: ["CI_JOB_JWT": ci.token(subject: subject, audience: audience)])
        #expect(good.status == 0, "\(good.stderr)")
    }

    @Test("--federated-token github-actions: the runner's token service with its bearer and the audience; hostile answers refused")
    func githubActions() async throws {
        try await authctl.addFakeProvider(provider)
        let actions = try FakeActionsTokenService(issuer: ci)
        let noAudience = try await login(["--federated-token", "github-actions"], environment: actions.environment)
        #expect(noAudience.status == 2 && noAudience.stderr.contains("--federated-audience"), "\(noAudience.stderr)")
        let outside = try await login(["--federated-token", "github-actions", "--federated-audience", audience])
        #expect(outside.status == 7 && outside.stderr.contains("id-token: write"), "\(outside.stderr)")

        for hostile in [
            HTTPResponse(status: 200, body: Data("<html>".utf8)), FakeHTTP.json(.object(["value": .number(1)])),
            FakeHTTP.json(.object(["value": .string(String(repeating: "a", count: 70_000))])), HTTPResponse(status: 500),
        ] {
            actions.answerOverride = hostile
            let refused = try await login(
                ["--federated-token", "github-actions", "--federated-audience", audience], environment: actions.environment)
            #expect([2, 3].contains(refused.status), "\(refused.status) \(refused.stderr)")
            #expect(authctl.keystoreBytes() == nil)
        }
        actions.answerOverride = nil
        let signedIn = try await login(
            ["--federated-token", "github-actions", "--federated-audience", audience], environment: actions.environment)
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(!signedIn.stderr.contains(actions.requestToken))
        #expect(actions.askedAudiences == [audience, audience, audience, audience, audience])
        let token = try await authctl.run(["token", "--force-refresh"], environment: actions.environment)
        #expect(token.status == 0, "\(token.stderr)")
        #expect(actions.askedAudiences.count == 6, "fetched again at the next grant")
        let remote = try await login(
            ["--federated-token", "github-actions", "--federated-audience", audience],
            environment: ["ACTIONS_ID_TOKEN_REQUEST_URL": "http://actions.example/token", "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "x"])
        #expect(remote.status == 7 && remote.stderr.contains("not https"), "plain http only on loopback: \(remote.stderr)")
    }

    @Test(
        "--certificate-file: private_key_jwt signed RS256 or ES256; a key readable by others is refused; a replayed jti is refused by the fake"
    )
    func privateKeyJWT() async throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let ec = P256.Signing.PrivateKey()
        provider.behaviour.workloads = [
            WorkloadRegistration(clientID: "ci-rsa", key: .rsa(rsa.publicKey)),
            WorkloadRegistration(clientID: "ci-ec", key: .p256(ec.publicKey)),
        ]
        try await authctl.addFakeProvider(provider)
        let certificate =
            "-----BEGIN CERTIFICATE-----\n\(Data((0..<64).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\n-----END CERTIFICATE-----\n"
        let rsaFile = write(rsa.pemRepresentation + "\n" + certificate, to: "rsa.pem")
        let ecFile = write(ec.pemRepresentation + "\n" + certificate, to: "ec.pem")
        let open = write(rsa.pemRepresentation + "\n" + certificate, to: "open.pem", mode: 0o644)
        let loose = try await authctl.run([
            "login", "oidc.fake", "--client-credentials", "--client-id", "ci-rsa", "--certificate-file", open,
        ])
        #expect(loose.status == 7, "\(loose.stderr)")
        for (client, file) in [("ci-rsa", rsaFile), ("ci-ec", ecFile)] {
            let signedIn = try await authctl.run(
                ["login", "oidc.fake", "--client-credentials", "--client-id", client, "--certificate-file", file])
            #expect(signedIn.status == 0, "\(client): \(signedIn.stderr)")
        }
        let again = try await authctl.run(["token", "--force-refresh"])
        #expect(again.status == 0, "a new jti at every grant: \(again.stderr)")
        let pss = try await authctl.run(
            [
                "login", "oidc.fake", "--client-credentials", "--client-id", "ci-rsa", "--certificate-file", rsaFile,
                "--assertion-algorithm", "PS256",
            ])
        #expect(pss.status == 0, "\(pss.stderr)")
        #expect(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains("\"assertionAlgorithm\" : \"PS256\""))
        #expect(try await authctl.run(["token", "--force-refresh"]).status == 0, "PS256 again at the next grant")
        let ecAsPSS = try await authctl.run(
            [
                "login", "oidc.fake", "--client-credentials", "--client-id", "ci-ec", "--certificate-file", ecFile, "--assertion-algorithm",
                "PS256",
            ])
        #expect(ecAsPSS.status == 2 && ecAsPSS.stderr.contains("P-256"), "\(ecAsPSS.stderr)")
        let wrongKey = try await authctl.run([
            "login", "oidc.fake", "--client-credentials", "--client-id", "ci-rsa", "--certificate-file", ecFile,
        ])
        #expect(wrongKey.status == 4, "\(wrongKey.stderr)")
    }
}
