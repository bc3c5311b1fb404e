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

    /// An API server stand-in for kubectl (which sends exec credentials over TLS only): https on
    /// 127.0.0.1 with a throwaway certificate, answering `/version` to a Bearer JWT from `issuer`
    /// whose audience is `clientID` — what the OIDC authenticator checks, signature aside — and
    /// 401 otherwise. It prints its port, then one line per request: `ok TOKEN` or `refused`.
    static let apiServer = #"""
        import base64, http.server, json, ssl, sys
        issuer, audience, cert, key = sys.argv[1:5]
        def claims(token):
            try:
                part = token.split(".")[1]
                return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
            except Exception:
                return {}
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                authorization = self.headers.get("Authorization") or ""
                token = authorization[7:] if authorization.startswith("Bearer ") else ""
                c = claims(token)
                aud = c.get("aud")
                ok = c.get("iss") == issuer and (aud == audience or (isinstance(aud, list) and audience in aud))
                print(("ok " + token) if ok else "refused", flush=True)
                body = json.dumps({"major": "1", "minor": "32", "gitVersion": "v1.32.0"} if ok else
                                  {"kind": "Status", "status": "Failure", "reason": "Unauthorized", "code": 401}).encode()
                self.send_response(200 if ok else 401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    @Test("docs/ci.md's kubeconfig entry as written, run by the real kubectl: the API server receives a fresh ID token")
    func realKubectl() async throws {
        // kubectl, python3 and openssl run the cluster side; without them there is nothing to run.
        for tool in [["kubectl", "version", "--client"], ["python3", "--version"], ["openssl", "version"]] {
            guard Process.run(tool[0], Array(tool.dropFirst())) == 0 else { return }
        }
        // ID tokens living 30 s, under --min-ttl's 60: the kubectl run makes authctl refresh, which
        // needs the provider's configuration — found only through the entry's `env`.
        provider.update { $0.idTokenExpiresIn = 30 }
        try await signIn()
        let signedIn = try await authctl.run(["token", "oidc.k8s", "--id-token", "--min-ttl", "0"]).stdout
        let directory = authctl.home + "/cluster"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certificate = Process.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/key.pem",
                "-out", directory + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        #expect(certificate == 0)
        try Data(Self.apiServer.utf8).write(to: URL(fileURLWithPath: directory + "/apiserver.py"))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", directory + "/apiserver.py", provider.issuer, provider.clientID, directory + "/cert.pem", directory + "/key.pem",
        ]
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        server.standardInput = FileHandle.nullDevice
        try server.run()
        // SIGKILL: the test process may hand its children an ignored SIGTERM.
        defer {
            if server.isRunning {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
            }
        }
        let lines = LineReader(serverOutput.fileHandleForReading)
        let port = try #require(await lines.next().flatMap { Int($0) }, "the API server stand-in started")

        let kubeconfig = directory + "/kubeconfig"
        let recipe = """
            apiVersion: v1
            kind: Config
            clusters:
              - name: local
                cluster:
                  server: https://127.0.0.1:\(port)
                  insecure-skip-tls-verify: true
            contexts:
              - name: local
                context: {cluster: local, user: oidc}
            current-context: local
            users:
              - name: oidc
                user:
                  exec:
                    apiVersion: client.authentication.k8s.io/v1
                    command: authctl
                    args: [token, oidc.k8s, --format, kubectl-exec]
                    env:
                      - name: AUTHCTL_CONFIG
                        value: \(authctl.configPath)
                    interactiveMode: Never

            """
        try Data(recipe.utf8).write(to: URL(fileURLWithPath: kubeconfig))
        // `command: authctl` from PATH, as installed; XDG_CONFIG_HOME points elsewhere, so the
        // configuration is reachable through the entry's env alone.
        var environment = authctl.environment
        let binaryDirectory = URL(fileURLWithPath: AuthctlProcess.binary).deletingLastPathComponent().path
        environment["PATH"] = binaryDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_CONFIG_HOME"] = authctl.home + "/nowhere"
        environment["KUBECONFIG"] = kubeconfig
        let kubectl = Process()
        kubectl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        kubectl.arguments = ["kubectl", "get", "--raw", "/version"]
        kubectl.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        kubectl.standardOutput = stdout
        kubectl.standardError = stderr
        kubectl.standardInput = FileHandle.nullDevice
        try kubectl.run()
        let (kubectlStatus, out, err) = await OffPool.finish(kubectl, stdout: stdout, stderr: stderr)
        // What the server saw: its lines up to its end (killed here, so the read cannot hang).
        kill(server.processIdentifier, SIGKILL)
        _ = await OffPool.exit(of: server)
        var seen: [String] = []
        while let line = await lines.next() { seen.append(line) }
        #expect(kubectlStatus == 0, "\(String(decoding: err, as: UTF8.self)) \(seen.map { $0.prefix(12) })")
        #expect(String(decoding: out, as: UTF8.self).contains("v1.32.0"))
        let first = try #require(seen.first, "the API server saw a request")
        #expect(first.hasPrefix("ok ey"), "the API server accepted an ID token: \(first.prefix(12))")
        #expect(first != "ok " + signedIn.trimmingCharacters(in: .whitespacesAndNewlines), "a refreshed one")
    }
}

/// Lines from a pipe, read a byte at a time (test use: a few short lines).
final class LineReader: @unchecked Sendable {
    let handle: FileHandle
    init(_ handle: FileHandle) { self.handle = handle }
    /// The next line, read off the concurrency pool (`OffPool`); nil at the end.
    func next() async -> String? { await OffPool.run { self.line() } }

    private func line() -> String? {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == Data("\n".utf8) { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}
