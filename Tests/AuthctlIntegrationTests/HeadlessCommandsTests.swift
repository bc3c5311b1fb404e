import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What CI scripts and SSH sessions use: exec, and every command with no terminal and stdin
/// closed; a real terminal. (Device code and --manual: DeviceCodeAndManualCommandsTests, in-process.)
@Suite("authctl without a browser or a terminal", .serialized)
final class HeadlessCommandsTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0)
    }

    func login() async throws {
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    @Test("exec: the child gets the token and a file that is refreshed before expiry; authctl exits with the child's status")
    func execKeepsTheTokenFresh() async throws {
        try await setUp()
        provider.behaviour.accessTokenLifetime = .number(4)
        try await login()
        let script = #"""
            echo "env $AUTHCTL_TOKEN"; echo "file $(cat "$AUTHCTL_TOKEN_FILE")"; echo "path $AUTHCTL_TOKEN_FILE"
            echo "mode $(stat -c %a "$AUTHCTL_TOKEN_FILE")"; sleep 4; echo "later $(cat "$AUTHCTL_TOKEN_FILE")"; exit 7
            """#
        let result = try await authctl.run(["exec", "--", "sh", "-c", script])
        #expect(result.status == 7, "\(result.stderr)")
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        #expect(values["env"]?.hasPrefix("at-") == true && values["env"] == values["file"])
        #expect(values["later"]?.hasPrefix("at-") == true && values["later"] != values["env"], "refreshed while the child ran")
        #expect(values["mode"] == "600")
        #expect(values["path"].map { !FileManager.default.fileExists(atPath: $0) } == true, "removed when the child ends")
        #expect(provider.count("refresh") >= 1)
    }

    @Test("exec: a command that cannot run, no command, nobody signed in")
    func execRefusals() async throws {
        try await setUp()
        #expect(try await authctl.run(["exec"]).status == 2)
        #expect(try await authctl.run(["exec", "--", "true"]).status == 16)
        try await login()
        #expect(try await authctl.run(["exec", "--", "true"]).status == 0)
        let killed = try await authctl.run(["exec", "--", "sh", "-c", "kill -TERM $$"])
        #expect(killed.status == 128 + 15, "a child ended by SIGTERM: \(killed.status) \(killed.stderr)")
        let interrupted = try await authctl.run(["exec", "--", "sh", "-c", "kill -INT $$; echo survived"])
        #expect(
            interrupted.status == 128 + 2 && !interrupted.stdout.contains("survived"), "the child does not inherit authctl's ignored SIGINT"
        )
    }

    @Test("exec: a program that does not exist exits 127, one that is not executable 126, as a shell; the message names it")
    func execMissingProgram() async throws {
        try await setUp()
        try await login()
        let missing = try await authctl.run(["exec", "--", "/nonexistent/command"])
        #expect(missing.status == 127, "\(missing.status) \(missing.stderr)")
        #expect(missing.stderr.contains("'/nonexistent/command'") && missing.stderr.contains("not found"), "\(missing.stderr)")
        let unknown = try await authctl.run(["exec", "--", "authctl-no-such-program"])
        #expect(unknown.status == 127 && unknown.stderr.contains("PATH"), "\(unknown.status) \(unknown.stderr)")
        let file = authctl.home + "/not-executable.sh"
        try "echo hi\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let notExecutable = try await authctl.run(["exec", "--", file])
        #expect(notExecutable.status == 126, "\(notExecutable.status) \(notExecutable.stderr)")
        #expect(notExecutable.stderr.contains("not executable") && notExecutable.stderr.contains("chmod"), "\(notExecutable.stderr)")
        let json = try await authctl.run(["--json", "exec", "--", "/nonexistent/command"])
        #expect(json.status == 127 && json.stdout.contains("\"command-not-found\""), "\(json.stdout)")
    }

    @Test("every command, stdin closed and no terminal, finishes with its documented exit code and never asks")
    func noTerminal() async throws {
        let commands: [([String], Int32)] = [
            (["status"], 16), (["token"], 16), (["signout"], 0), (["users", "list"], 0), (["users", "show"], 16),
            (["users", "delete"], 16), (["users", "export"], 0), (["providers", "list"], 0), (["link", "oidc.fake"], 16),
            (["reauth", "oidc.fake"], 16), (["unlink", "oidc.fake"], 16), (["exec", "--", "true"], 16),
            (["login", "oidc.unknown"], 7), (["login", "oidc.fake", "--no-browser", "--timeout", "1"], 5),
            (["login", "oidc.fake", "--manual", "--timeout", "1"], 5), (["users", "import", "-"], 2),
            (["login", "oidc.fake", "--id-token", "-"], 2),
        ]
        try await setUp()
        for (arguments, expected) in commands {
            let started = Date()
            let result = try await authctl.run(arguments)
            #expect(result.status == expected, "\(arguments): \(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 15, "\(arguments) did not hang")
            #expect(!result.stderr.contains("[y/N]"), "\(arguments) asked a question")
        }
    }

    /// Runs authctl on a pseudo-terminal (util-linux `script`), as a person at a terminal does.
    func onTerminal(_ arguments: String, noColor: Bool) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // no-color.org: set and not empty disables colours; empty counts as unset.
        let unset = noColor ? "" : "env NO_COLOR= "
        process.arguments = ["-qefc", unset + AuthctlProcess.binary + " " + arguments, "/dev/null"]
        process.environment = authctl.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let (status, data, _) = await OffPool.finish(process, stdout: output)
        return (status, String(decoding: data, as: UTF8.self))
    }

    @Test("on a terminal: the waiting line gives the timeout and how to cancel, in colour unless NO_COLOR; no colour without a terminal")
    func terminal() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        try await setUp()
        let coloured = try await onTerminal("login oidc.fake --no-browser --timeout 1", noColor: false)
        #expect(coloured.status == 5, "\(coloured.output)")
        #expect(coloured.output.contains("timeout 1 s") && coloured.output.contains("press Ctrl-C to cancel"))
        #expect(coloured.output.contains("\u{1B}["), "colours on a terminal")
        let plain = try await onTerminal("login oidc.fake --no-browser --timeout 1", noColor: true)
        #expect(plain.status == 5 && plain.output.contains("press Ctrl-C to cancel"))
        #expect(!plain.output.contains("\u{1B}["), "never with NO_COLOR")
        let piped = try await authctl.run(["login", "oidc.fake", "--no-browser", "--timeout", "1"], environment: ["NO_COLOR": ""])
        #expect(piped.status == 5 && !piped.stderr.contains("\u{1B}[") && !piped.stderr.contains("Ctrl-C"), "no terminal: plain lines")
    }
}
