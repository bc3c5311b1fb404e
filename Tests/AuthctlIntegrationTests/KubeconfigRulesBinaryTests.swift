import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// docs/identities.md with the real kubectl: `authctl kubeconfig set-credentials` writes the
/// exec entry, and a rule on kubectl's current context chooses Ada while Grace is the current
/// user; an API server of the test's own accepts only Ada's ID token.
@Suite("kubeconfig set-credentials and rules, with the real kubectl", .serialized)
final class KubeconfigRulesBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// kubectl's API server stand-in: https on 127.0.0.1, `/api` answered to a Bearer JWT from
    /// `issuer` for `audience` whose `sub` is the one expected, 401 otherwise. One line per
    /// request: `ok SUB` or `refused SUB`.
    static let apiServer = #"""
        import base64, http.server, json, ssl, sys
        issuer, audience, subject, cert, key = sys.argv[1:6]
        def claims(token):
            try:
                part = token.split(".")[1]
                return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
            except Exception:
                return {}
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                authorization = self.headers.get("Authorization") or ""
                c = claims(authorization[7:] if authorization.startswith("Bearer ") else "")
                ok = c.get("iss") == issuer and c.get("aud") in (audience, [audience]) and c.get("sub") == subject
                print(("ok " if ok else "refused ") + str(c.get("sub")), flush=True)
                body = json.dumps({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []} if ok else
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

    func kubectl(_ arguments: [String], kubeconfig: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = authctl.environment
        let binaryDirectory = URL(fileURLWithPath: AuthctlProcess.binary).deletingLastPathComponent().path
        environment["PATH"] = binaryDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["KUBECONFIG"] = kubeconfig
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["kubectl"] + arguments
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let (status, out, err) = await OffPool.finish(process, stdout: stdout, stderr: stderr)
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test("kubectl get --raw /api succeeds with the identity a kube-context rule chooses, through the entry set-credentials wrote")
    func kubectlWithTheRuleChosenIdentity() async throws {
        for tool in [["kubectl", "version", "--client"], ["python3", "--version"], ["openssl", "version"]] {
            guard Process.run(tool[0], Array(tool.dropFirst())) == 0 else { return }
        }
        let added = try await authctl.run(["providers", "add", "oidc.k8s", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(added.status == 0, "\(added.stderr)")
        for (subject, email) in [("ada-subject", "ada@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.k8s", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
            #expect(login.status == 0, "\(login.stderr)")
        }
        let directory = authctl.home + "/cluster"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(
            Process.run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/key.pem",
                    "-out", directory + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ]) == 0)
        try Data(Self.apiServer.utf8).write(to: URL(fileURLWithPath: directory + "/apiserver.py"))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", directory + "/apiserver.py", provider.issuer, provider.clientID, "ada-subject", directory + "/cert.pem",
            directory + "/key.pem",
        ]
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        server.standardInput = FileHandle.nullDevice
        try server.run()
        defer {
            if server.isRunning {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
            }
        }
        let lines = LineReader(serverOutput.fileHandleForReading)
        let port = try #require(await lines.next().flatMap { Int($0) }, "the API server stand-in started")

        // The cluster and context as kubectl writes them; the user `oidc` comes from authctl.
        let kubeconfig = directory + "/config"
        let original = """
            apiVersion: v1
            clusters:
            - cluster:
                insecure-skip-tls-verify: true
                server: https://127.0.0.1:\(port)
              name: local
            contexts:
            - context:
                cluster: local
                user: oidc
              name: local
            current-context: local
            kind: Config
            preferences: {}
            users: null

            """
        try Data(original.utf8).write(to: URL(fileURLWithPath: kubeconfig))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kubeconfig)

        let dryRun = try await authctl.run([
            "kubeconfig", "set-credentials", "oidc", "--provider", "oidc.k8s", "--kubeconfig", kubeconfig, "--dry-run",
        ])
        #expect(dryRun.status == 0 && dryRun.stdout.contains("interactiveMode: IfAvailable"), "\(dryRun.stderr)")
        #expect(FileManager.default.contents(atPath: kubeconfig) == Data(original.utf8), "--dry-run changes nothing")
        let set = try await authctl.run(["kubeconfig", "set-credentials", "oidc", "--provider", "oidc.k8s", "--kubeconfig", kubeconfig])
        #expect(set.status == 0, "\(set.stderr)")
        let view = try await kubectl(["config", "view", "-o", "jsonpath={.users[0].user.exec.args}"], kubeconfig: kubeconfig)
        #expect(view.status == 0 && view.stdout.contains("kubectl-exec"), "kubectl reads what authctl wrote: \(view.stdout) \(view.stderr)")

        // Grace is current: the server, which wants Ada, refuses.
        let refused = try await kubectl(["get", "--raw", "/api"], kubeconfig: kubeconfig)
        #expect(refused.status != 0)
        // A rule on the kube context: Ada, while Grace stays the current user.
        let rule = try await authctl.run(["rules", "add", "--name", "cluster", "--user", "ada@example.com", "--kube-context", "local"])
        #expect(rule.status == 0, "\(rule.stderr)")
        let api = try await kubectl(["get", "--raw", "/api"], kubeconfig: kubeconfig)
        #expect(api.status == 0, "\(api.stderr)")
        #expect(api.stdout.contains("APIVersions"))
        // What the server saw (killed here, so the read cannot hang): Grace refused, then Ada accepted.
        kill(server.processIdentifier, SIGKILL)
        _ = await OffPool.exit(of: server)
        var seen: [String] = []
        while let line = await lines.next() { seen.append(line) }
        #expect(seen.first == "refused grace-subject" && seen.last == "ok ada-subject", "\(seen)")
        #expect(!seen.contains("ok grace-subject"))
        let status = try await authctl.run(["status", "--json"], environment: ["KUBECONFIG": directory + "/none"])
        #expect(status.json?["user"]?.objectValue?["email"] == .string("grace@example.com"))

        // Again: the entry is replaced, not added twice.
        let again = try await authctl.run(["kubeconfig", "set-credentials", "oidc", "--provider", "oidc.k8s", "--kubeconfig", kubeconfig])
        #expect(again.status == 0 && again.stdout.contains("Replaced"), "\(again.stderr)")
        let users = try await kubectl(["config", "view", "-o", "jsonpath={.users[*].name}"], kubeconfig: kubeconfig)
        #expect(users.stdout == "oidc")
    }
}

/// A directory rule as the real binary sees the working directory: symbolic links resolved.
@Suite("A directory rule, run from a real directory and through a symbolic link", .serialized)
final class DirectoryRuleBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// `authctl token` run in `directory` (through a shell's cd, as a person would).
    func token(in directory: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \"$1\" && exec \"$2\" token", "sh", directory, AuthctlProcess.binary]
        process.environment = authctl.environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let out = await OffPool.finish(process, stdout: stdout).stdout
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("in ~/work and under it (also reached through a link) Ada's token; elsewhere the current user's")
    func directoryRule() async throws {
        try await authctl.addFakeProvider(provider)
        var tokens: [String] = []
        for (subject, email) in [("ada-subject", "ada@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
            #expect(login.status == 0, "\(login.stderr)")
            tokens.append(try await authctl.run(["token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let work = authctl.home + "/projects/work"
        try FileManager.default.createDirectory(atPath: work + "/app/src", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: authctl.home + "/projects/workshop", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: authctl.home + "/w", withDestinationPath: work)
        let rule = try await authctl.run(["rules", "add", "--user", "ada@example.com", "--directory", "~/projects/work/"])
        #expect(rule.status == 0, "\(rule.stderr)")
        #expect(try await token(in: work) == tokens[0])
        #expect(try await token(in: work + "/app/src") == tokens[0])
        #expect(try await token(in: authctl.home + "/w/app") == tokens[0], "through the link: the real directory is under the rule's")
        #expect(try await token(in: authctl.home + "/projects/workshop") == tokens[1], "a sibling that shares the prefix is not under it")
        #expect(try await token(in: "/") == tokens[1])
    }

    @Test(
        "another user's .git in a shared parent (uid 12345) makes no remote rule hold: the current user's token, as git's safe.directory"
    )
    func remoteRuleIgnoresAnotherUsersGitDirectory() async throws {
        try await authctl.addFakeProvider(provider)
        var tokens: [String] = []
        for (subject, email) in [("ops-subject", "ops@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
            #expect(login.status == 0, "\(login.stderr)")
            tokens.append(try await authctl.run(["token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let rule = try await authctl.run([
            "rules", "add", "--name", "prod", "--user", "ops@example.com", "--remote", "https://prod.example.com/**",
        ])
        #expect(rule.status == 0, "\(rule.stderr)")
        // A shared parent (as /tmp is): someone's .git, with the prod remote, above the victim's project.
        let shared = authctl.home + "/shared"
        try FileManager.default.createDirectory(atPath: shared + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: shared + "/project", withIntermediateDirectories: true)
        try Data("[remote \"origin\"]\n\turl = https://prod.example.com/app.git\n".utf8).write(
            to: URL(fileURLWithPath: shared + "/.git/config"))
        #expect(try await token(in: shared + "/project") == tokens[0], "one's own .git: the prod rule holds")
        // Tests run as root here; as anyone else chown is refused and the rest cannot be shown.
        guard getuid() == 0 else { return }
        #expect(chown(shared + "/.git", 12345, 12345) == 0)
        #expect(try await token(in: shared + "/project") == tokens[1], "another user's .git chooses nothing: the current user's")
    }
}
