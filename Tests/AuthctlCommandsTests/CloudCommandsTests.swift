import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `aws-credentials`, `gcp-token` and `token --exchange/--output-file` through the command
/// layer (docs/cloud.md): what stdout carries and nothing else, the exit codes, the usage rules.
@Suite("cloud credential commands", .serialized)
final class CloudCommandsTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()
    var sts: LoopbackHTTPServer?

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit {
        sts?.stop()
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    func signIn() async throws {
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    @Test(
        "usage: exchange options need --exchange, an exchange needs a target, ranges and endpoints are checked (exit 2)",
        arguments: [
            ["token", "--audience", "a"],
            ["token", "--exchange"],
            ["token", "--exchange", "--audience", "a", "--id-token"],
            ["token", "--exchange", "--audience", "a", "--actor-token-file", "f", "--actor-token-env", "V"],
            ["token", "--exchange", "--resource", "not a url"],
            ["token", "--output-file", "/tmp/x", "--format", "json"],
            ["token", "--exchange", "--audience", "a", "--method", "GET", "--url", "https://api.example.com/"],
            ["aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--duration", "60"],
            ["aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--sts-endpoint", "http://sts.example.com/"],
            ["aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--region", "eu-west-1/../x"],
            ["aws-credentials", "--role-arn", "not-an-arn"],
        ])
    func usage(arguments: [String]) async throws {
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("gcp-token with nobody signed in: success false with the code and message on stdout, exit 16")
    func gcpTokenSignedOut() async throws {
        let result = try await authctl.run(["gcp-token"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES": "1"])
        #expect(result.status == 16)
        let json = try #require(result.json, "\(result.stdout)")
        #expect(json["version"] == .number(1) && json["success"] == .bool(false) && json["code"] == "no-current-user")
        #expect(json["message"]?.stringValue?.contains("authctl login") == true)
    }

    @Test("gcp-token: the ID token with its type and expiry, and nothing on stderr (Google merges it into stdout)")
    func gcpToken() async throws {
        try await signIn()
        let idToken = try await authctl.run(["token", "--id-token"]).stdout.trimmingCharacters(in: .newlines)
        let result = try await authctl.run(
            ["gcp-token"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE": "urn:ietf:params:oauth:token-type:id_token"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["success"] == .bool(true) && json["version"] == .number(1))
        #expect(json["token_type"] == "urn:ietf:params:oauth:token-type:id_token" && json["id_token"] == .string(idToken))
        let expiry = try #require(json["expiration_time"]?.numberValue)
        #expect(expiry > Date().timeIntervalSince1970 && expiry == expiry.rounded(.down))
        let jwt = try await authctl.run(
            ["gcp-token"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE": "urn:ietf:params:oauth:token-type:jwt"])
        #expect(jwt.json?["token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        let revoke = try await authctl.run(["gcp-token"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_REVOKE": "1"])
        #expect(revoke.status == 0 && revoke.json == ["version": .number(1), "success": .bool(true)])
    }

    @Test("token --id-token --output-file: the token alone, no newline, mode 0600; nothing on stdout")
    func outputFile() async throws {
        try await signIn()
        let idToken = try await authctl.run(["token", "--id-token"]).stdout.trimmingCharacters(in: .newlines)
        let path = authctl.home + "/azure/federated-token"
        let result = try await authctl.run(["token", "--id-token", "--output-file", path])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: path) == Data(idToken.utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("aws-credentials prints the credential_process document on stdout and nothing secret on stderr, even with -v")
    func awsCredentials() async throws {
        try await signIn()
        let server = try LoopbackHTTPServer { _ in
            var answer = CloudCredentialsCommandFixtures.stsSuccess
            answer.headers["Content-Type"] = "text/xml"
            return answer
        }
        sts = server
        let result = try await authctl.run([
            "-v", "aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--sts-endpoint", server.baseURL + "/",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json, "\(result.stdout)")
        #expect(json["Version"] == .number(1) && json["AccessKeyId"] == "ASIAIOSFODNN7EXAMPLE")
        #expect(json["SecretAccessKey"] == "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" && json["SessionToken"] == "FwoGZXIvYXdzEXAMPLE")
        #expect(json["Expiration"] == "2099-01-01T00:00:00Z")
        #expect(result.stderr.contains("http: POST http://127.0.0.1:\(server.port)/ → 200"), "\(result.stderr)")
        #expect(!result.stderr.contains("wJalrXUtnFEMI") && !result.stderr.contains("FwoGZXIvYXdz"))
    }

    @Test("aws-credentials: an unreachable STS exits 3 naming STS and --sts-endpoint, not the provider (issue 38, item 13)")
    func awsUnreachable() async throws {
        try await signIn()
        let closed = try LoopbackHTTPServer { _ in HTTPResponse(status: 404) }
        closed.stop()
        let result = try await authctl.run([
            "aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--sts-endpoint", closed.baseURL + "/",
        ])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("STS") && result.stderr.contains("127.0.0.1:\(closed.port)"), "\(result.stderr)")
        #expect(result.stderr.contains("--sts-endpoint") && !result.stderr.contains("provider"), "\(result.stderr)")
    }

    @Test("aws-credentials: STS's refusal exits 4 with its code and the next step; --json carries stsError")
    func awsRefusal() async throws {
        try await signIn()
        let server = try LoopbackHTTPServer { _ in
            HTTPResponse(
                status: 400,
                body: Data(
                    "<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>No OpenIDConnect provider found</Message></Error></ErrorResponse>"
                        .utf8))
        }
        sts = server
        let result = try await authctl.run([
            "--json", "aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--sts-endpoint", server.baseURL + "/",
        ])
        #expect(result.status == 4)
        let error = try #require(result.json?["error"]?.objectValue, "\(result.stdout)")
        #expect(error["code"] == "invalid-credential" && error["stsError"] == "InvalidIdentityToken", "\(error)")
        #expect(error["message"]?.stringValue?.contains("--audience") == true)
    }
}

enum CloudCredentialsCommandFixtures {
    static let stsSuccess = HTTPResponse(
        status: 200,
        body: Data(
            """
            <AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <AssumeRoleWithWebIdentityResult>
                <AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/dev/s</Arn></AssumedRoleUser>
                <Credentials>
                  <SessionToken>FwoGZXIvYXdzEXAMPLE</SessionToken>
                  <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY</SecretAccessKey>
                  <Expiration>2099-01-01T00:00:00Z</Expiration>
                  <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
                </Credentials>
              </AssumeRoleWithWebIdentityResult>
            </AssumeRoleWithWebIdentityResponse>
            """.utf8))
}
