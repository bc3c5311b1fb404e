import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// docs/security.md's first rule, checked on the real binary: every command at full verbosity,
/// and not one token, code, verifier, state, nonce, device code or client secret that the
/// session used appears in what authctl prints. (The one exception by design: the token that
/// `authctl token` prints on stdout, and the authorization URL that `--manual` must show.)
@Suite("No secret reaches the output of any command at -v", .serialized)
final class RedactionTests {
    let work: FakeIdentityProvider
    let home: FakeIdentityProvider
    let authctl = AuthctlProcess()
    let clientSecret = "cs-" + UUID().uuidString
    var outputs: [(command: String, text: String)] = []
    var keystores: [String] = []

    init() throws {
        work = try FakeIdentityProvider()
        home = try FakeIdentityProvider()
        work.behaviour.clientSecret = clientSecret
        home.behaviour.subject = "home-1"
        home.behaviour.deviceInterval = .number(1)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Runs a command at -v; records what it printed (stdout too, unless it is the token by design).
    @discardableResult
    func run(_ arguments: [String], browser: Bool = false, stdoutIsTheToken: Bool = false, expect status: Int32 = 0) async throws
        -> AuthctlProcess.Result
    {
        let extra = browser ? ["--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"] : []
        let result = try await authctl.run(arguments + ["-v"] + extra, environment: ["WORK_SECRET": clientSecret])
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        record(arguments, result, stdoutIsTheToken: stdoutIsTheToken)
        return result
    }

    func record(_ arguments: [String], _ result: AuthctlProcess.Result, stdoutIsTheToken: Bool = false) {
        outputs.append((arguments.joined(separator: " "), result.stderr + (stdoutIsTheToken ? "" : result.stdout)))
        keystores.append(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self))
    }

    @Test("every command, at -v, prints no secret of the session")
    func everyCommand() async throws {
        try await run([
            "providers", "add", "oidc.work", "--issuer", work.issuer, "--client-id", work.clientID, "--client-secret-env", "WORK_SECRET",
        ])
        try await run(["providers", "add", "oidc.home", "--issuer", home.issuer, "--client-id", home.clientID])
        try await run(["providers", "list"])
        try await run(["providers", "show", "oidc.work", "--json"])
        try await run(["login", "oidc.work", "--json"], browser: true)
        try await run(["status"])
        try await run(["status", "--json"])
        for format in ["raw", "json", "header", "env", "kubectl-exec"] {
            try await run(["token", "--format", format], stdoutIsTheToken: true)
        }
        try await run(["token", "--force-refresh"], stdoutIsTheToken: true)
        try await run(["token", "--id-token"], stdoutIsTheToken: true)
        try await run(["token", "--scope", "api.read"], stdoutIsTheToken: true)
        try await run(["link", "oidc.home", "--device-code"])
        try await run(["link", "oidc.home"], browser: true, expect: 12)
        try await run(["reauth", "oidc.work"], browser: true)
        let manual = try await authctl.runManual(["reauth", "oidc.work", "--manual", "-v"], environment: ["WORK_SECRET": clientSecret]) {
            url in
            try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: url)).header("Location") ?? ""
        }
        #expect(manual.status == 0, "\(manual.stderr)")
        // --manual must show the authorization URL (its state and nonce are for the provider to
        // echo); everything else it prints is checked.
        var shown = manual
        shown.stderr = manual.stderr.split(separator: "\n").filter { !$0.contains("/authorize?") }.joined(separator: "\n")
        record(["reauth", "--manual"], shown)
        try await run(["exec", "--", "sh", "-c", "echo child ran"])
        try await run(["users", "list"])
        try await run(["users", "show", "--json"])
        try await run(["users", "export"])
        try await run(["users", "export", "--format", "firebase"])
        try await run(["unlink", "oidc.home"])
        try await run(["login", "oidc.home"], browser: true, expect: 10)  // account-exists: a pending credential saved
        try await run(["signout", "--revoke"])
        try await run(["login", "oidc.work"], browser: true)
        try await run(["users", "delete", "--json"])
        try await run(["status"], expect: 16)

        var secrets = Set(work.issuedSecrets + home.issuedSecrets + [clientSecret])
        for keystore in keystores { secrets.formUnion(AuthctlBinaryTests.tokens(in: keystore)) }
        secrets = secrets.filter { $0.count >= 8 }
        #expect(secrets.count > 30, "the session used many secrets: \(secrets.count)")
        #expect(outputs.contains { $0.text.contains("http: POST") }, "-v logs the HTTP exchanges")
        for (command, text) in outputs {
            for secret in secrets where text.contains(secret) {
                Issue.record("`authctl \(command) -v` printed a secret: \(secret.prefix(6))…")
            }
            for word in ["code_verifier", "client_secret", "refresh_token=", "device_code=", "?code=", "&code=", "state=", "nonce="] {
                #expect(!text.contains(word), "`authctl \(command) -v` printed \(word)")
            }
        }
    }
}
