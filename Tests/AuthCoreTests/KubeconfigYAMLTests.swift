import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

@Suite("kubeconfig YAML as kubectl writes it")
struct KubeconfigYAMLTests {
    static let kubectlWritten = """
        apiVersion: v1
        clusters:
        - cluster:
            certificate-authority-data: LS0tLS1CRUdJTg==
            server: https://127.0.0.1:6443
          name: kind
        contexts:
        - context:
            cluster: kind
            user: kind-admin
          name: kind
        current-context: kind
        kind: Config
        preferences: {}
        users:
        - name: kind-admin
          user:
            client-certificate-data: LS0t
            insecure: true
            token: "12345"

        """

    @Test("a file kubectl wrote reads and writes back to the same text")
    func roundTrip() throws {
        let document = try KubeconfigYAML.parse(Self.kubectlWritten)
        #expect(document["current-context"]?.text == "kind")
        #expect(document.emitted() == Self.kubectlWritten)
    }

    @Test("hand-written forms: indented sequences, flow collections, quotes, comments")
    func handWritten() throws {
        let text = """
            # mine
            apiVersion: v1
            clusters:
              - name: local   # the local one
                cluster:
                  server: 'https://127.0.0.1:6443'
                  insecure-skip-tls-verify: true
            contexts:
              - name: local
                context: {cluster: local, user: oidc}
            users:
              - name: oidc
                user:
                  exec:
                    args: [token, "oidc.k8s", --format, kubectl-exec]
            """
        let document = try KubeconfigYAML.parse(text)
        guard case .sequence(let contexts)? = document["contexts"] else {
            Issue.record("no contexts")
            return
        }
        #expect(contexts.first?["context"]?["user"]?.text == "oidc")
        guard case .sequence(let users)? = document["users"] else {
            Issue.record("no users")
            return
        }
        #expect(
            users.first?["user"]?["exec"]?["args"]
                == .sequence([.plain("token"), .string("oidc.k8s"), .plain("--format"), .plain("kubectl-exec")]))
        // What it writes reads back to the same document.
        #expect(try KubeconfigYAML.parse(document.emitted()).emitted() == document.emitted())
        #expect(
            try KubeconfigYAML.parse(document.emitted())["contexts"]
                == .sequence([
                    .mapping([("name", .plain("local")), ("context", .mapping([("cluster", .plain("local")), ("user", .plain("oidc"))]))])
                ]))
    }

    @Test(
        "what it does not read is refused with the line, never half-understood",
        arguments: [
            ("a: &x 1\nb: *x\n", 1), ("a: |\n  text\n", 1), ("a: !!str 1\n", 1), ("a: 1\n---\nb: 2\n", 2), ("a: [1, [2]]\n", 1),
            ("a: \"unterminated\n", 1), ("a: 1\na: 2\n", 2), ("a:\n\t- b\n", 2), ("just text\n", 1),
        ])
    func refuses(text: String, line: Int) {
        do {
            _ = try KubeconfigYAML.parse(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.line == line, "\(text): \(error.reason)")
        }
    }

    @Test("strings that YAML would read as something else are quoted when written")
    func quoting() throws {
        let document = KubeconfigYAML.mapping([
            ("a", .string("true")), ("b", .string("6443")), ("c", .string("--format=kubectl-exec")), ("d", .string("x: y")),
            ("e", .string("plain/path-ok")), ("f", .string("say \"hi\"\n")), ("g", .string("")),
        ])
        let text = document.emitted()
        #expect(text.contains("a: \"true\"\n") && text.contains("b: \"6443\"\n") && text.contains("c: \"--format=kubectl-exec\"\n"))
        #expect(text.contains("e: plain/path-ok\n"))
        let reread = try KubeconfigYAML.parse(text)
        for key in ["a", "b", "c", "d", "f", "g"] { #expect(reread[key] == document[key], "\(key)") }
        #expect(reread["e"]?.text == "plain/path-ok")
    }

    @Test("set-credentials adds the user, replaces it the second time, keeps the rest, writes 0600; a symlink is refused")
    func setCredentials() async throws {
        let directory = NSTemporaryDirectory() + "authctl-kube-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/config"
        try Data(Self.kubectlWritten.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let setup = KubeconfigSetup(random: SystemRandomSource(), clock: FixedClock())
        var input = KubeconfigSetup.Input(
            name: "oidc", path: path, command: "authctl", arguments: ["token", "--format=kubectl-exec", "oidc.k8s"], dryRun: false)
        let first = try await setup.run(input)
        #expect(first.written && !first.replaced)
        let written = try KubeconfigYAML.parse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        #expect(written["clusters"] == (try KubeconfigYAML.parse(Self.kubectlWritten))["clusters"])
        guard case .sequence(let users)? = written["users"] else {
            Issue.record("no users")
            return
        }
        #expect(users.count == 2 && users[1]["user"]?["exec"]?["interactiveMode"]?.text == "IfAvailable")
        #expect(users[1]["user"]?["exec"]?["apiVersion"]?.text == "client.authentication.k8s.io/v1")
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
        input.arguments.append("--user=ada@example.com")
        let second = try await setup.run(input)
        #expect(second.replaced)
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"), "kubectl's lock is removed")

        let link = directory + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        input.path = link
        await #expect(throws: AuthError.self) { try await setup.run(input) }
        input.dryRun = true
        input.path = directory + "/new"
        let dry = try await setup.run(input)
        #expect(!dry.written && !FileManager.default.fileExists(atPath: directory + "/new"))
        #expect(dry.entry.hasPrefix("- name: oidc\n  user:\n    exec:\n"))
    }

    @Test("kubectl's lock held by another program: waited for on the clock, taken once it is gone, else refused after 5 s naming it")
    func kubectlLockHeld() async throws {
        let directory = NSTemporaryDirectory() + "authctl-kube-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/config"
        let input = KubeconfigSetup.Input(name: "oidc", path: path, command: "authctl", arguments: ["token"], dryRun: false)
        #expect(FileManager.default.createFile(atPath: path + ".lock", contents: nil))
        // A fixed clock moves as it is slept on: the 5 s pass at once, and the file is left alone.
        let clock = FixedClock()
        await #expect {
            try await KubeconfigSetup(random: SystemRandomSource(), clock: clock).run(input)
        } throws: {
            ($0 as? AuthError)?.code == .keystoreError && "\($0)".contains("config.lock exists")
        }
        #expect(clock.now().timeIntervalSince(FixedClock().now()) >= 4.9)
        #expect(!FileManager.default.fileExists(atPath: path))

        let manual = ManualClock()
        let setup = Task { try await KubeconfigSetup(random: SystemRandomSource(), clock: manual).run(input) }
        await manual.untilWaiting()
        try FileManager.default.removeItem(atPath: path + ".lock")
        manual.advance(by: 0.1)
        #expect(try await setup.value.written)
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }
}
