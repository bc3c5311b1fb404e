import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// `authctl token` answers a cached token synchronously, before Swift concurrency starts
/// (`AuthctlInvocation.finishWithoutConcurrency`, which main.swift calls before it starts a
/// task); everything else goes through the command's usual async path. Both must print
/// the same thing. `-vq` is a form the fast parser hands over to ArgumentParser, so with it
/// the same request takes the async path.
@Suite("The token command's synchronous hot path", .serialized)
final class TokenHotPathTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        try await authctl.addFakeProvider(provider)
        let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    @Test("--format env is safe to eval whatever the token holds: a lying provider's shell syntax stays in the value")
    func envFormatIsQuoted() async throws {
        let marker = authctl.home + "/pwned"
        provider.update { $0.accessTokenSuffix = ";touch \(marker) $(touch \(marker)) 'q\"" }
        try await signIn()
        let token = try await authctl.run(["token"])
        let raw = token.stdout.trimmingCharacters(in: .newlines)
        for extra in [[], ["-vq"]] {
            let env = try await authctl.run(["token", "--format", "env"] + extra)
            #expect(env.status == 0, "\(env.stderr)")
            let script = authctl.home + "/env.sh"
            try Data(env.stdout.utf8).write(to: URL(fileURLWithPath: script))
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "eval \"$(cat \"$1\")\"; printf %s \"$AUTHCTL_TOKEN\"", "sh", script]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let value = String(decoding: await OffPool.finish(shell, stdout: out).stdout, as: UTF8.self)
            #expect(value == raw, "eval gave back another value: \(env.stdout)")
            #expect(!FileManager.default.fileExists(atPath: marker), "the token ran as shell code: \(env.stdout)")
        }
        // An ordinary token prints bare, as env files (docker --env-file) take it.
        provider.update { $0.accessTokenSuffix = "" }
        try await signIn()
        let plain = try await authctl.run(["token", "--format", "env"])
        #expect(plain.stdout.hasPrefix("export AUTHCTL_TOKEN=at-") && !plain.stdout.contains("'"), "\(plain.stdout)")
    }

    @Test("--format env eval'ed in a shell gives a child process the variable (export), as docs/ci.md promises")
    func envFormatReachesAChild() async throws {
        try await signIn()
        let raw = try await authctl.run(["token"]).stdout.trimmingCharacters(in: .newlines)
        for extra in [[], ["-vq"]] {
            let env = try await authctl.run(["token", "--format", "env"] + extra)
            #expect(env.stdout.hasPrefix("export AUTHCTL_TOKEN="), "\(env.stdout)")
            let script = authctl.home + "/env.sh"
            try Data(env.stdout.utf8).write(to: URL(fileURLWithPath: script))
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "eval \"$(cat \"$1\")\"; sh -c 'printf %s \"$AUTHCTL_TOKEN\"'", "sh", script]
            shell.environment = ["PATH": "/usr/bin:/bin"]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let value = String(decoding: await OffPool.finish(shell, stdout: out).stdout, as: UTF8.self)
            #expect(!raw.isEmpty && value == raw, "the child did not see AUTHCTL_TOKEN: \(env.stdout)")
        }
    }

    @Test("output that cannot be written (a full disk) is an error, not success: exit 1, saying so on stderr, on either path")
    func lostOutputFails() async throws {
        try await signIn()
        for arguments in [["token"], ["token", "-vq"], ["token", "--format", "json"], ["status"], ["--version"]] {
            let lost = try await authctl.run(arguments, stdoutFails: true)
            #expect(lost.status == 1, "\(arguments): \(lost.status) \(lost.stderr)")
            #expect(lost.stderr.contains("could not write") && lost.stderr.contains("No space left on device"), "\(lost.stderr)")
            #expect(!lost.stderr.contains("at-"), "the token never goes to stderr instead")
        }
        #expect(try await authctl.run(["token"]).status == 0)
    }

    @Test("a cached token is printed the same by the synchronous and the async path, in every format and for either token")
    func samePrinted() async throws {
        try await signIn()
        let requests: [[String]] =
            [[], ["--json"], ["--id-token"], ["--id-token", "--json"], ["--access-token", "--format", "kubectl-exec"]]
            + Token.Format.allCases.map { ["--format", $0.rawValue] }
            + Token.Format.allCases.map { ["--format", $0.rawValue, "--id-token"] }
        let requestsBefore = provider.count("discovery") + provider.count("jwks") + provider.count("token")
        for request in requests {
            let fast = try await authctl.run(["token"] + request)
            let async = try await authctl.run(["token"] + request + ["-vq"])
            #expect(fast.status == 0 && async.status == 0, "\(request): \(fast.stderr) \(async.stderr)")
            #expect(!fast.stdout.isEmpty && fast.stdout == async.stdout, "\(request)")
            #expect(fast.stderr.isEmpty, "\(request)")
        }
        #expect(
            provider.count("discovery") + provider.count("jwks") + provider.count("token") == requestsBefore,
            "every answer came from the keystore")
    }

    @Test("a token that expires within --min-ttl is still refreshed once, and the refreshed token is then served from the cache")
    func refreshStillHappens() async throws {
        try await signIn()
        provider.update { $0.accessTokenLifetime = .number(3600) }
        let cached = try await authctl.run(["token"])
        let before = provider.count("refresh")
        let refreshed = try await authctl.run(["token", "--min-ttl", "7200"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(provider.count("refresh") - before == 1)
        #expect(refreshed.stdout.hasPrefix("at-") && refreshed.stdout != cached.stdout)
        let again = try await authctl.run(["token"])
        #expect(again.stdout == refreshed.stdout)
        #expect(provider.count("refresh") - before == 1)
    }

    @Test("without a session, both paths fail the same way (status, message and JSON error)")
    func sameFailure() async throws {
        for request in [[], ["--json"], ["--format", "kubectl-exec"]] {
            let fast = try await authctl.run(["token"] + request)
            let async = try await authctl.run(["token"] + request + ["-vq"])
            #expect(fast.status == 16 && async.status == 16, "\(request): \(fast.stderr)")
            #expect(fast.stderr == async.stderr && fast.stdout == async.stdout, "\(request)")
        }
    }

    /// Seals the keystore with a new key file; its path.
    func seal() async throws -> String {
        let key = authctl.home + "/keystore.key"
        let made = try await authctl.run(["keystore", "new-key"])
        #expect(FileManager.default.createFile(atPath: key, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600]))
        let sealed = try await authctl.run(["keystore", "seal", "--key-file", key])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        return key
    }

    @Test("a key-file-sealed keystore is answered on the synchronous path too, the same as the async path")
    func sealedSynchronously() async throws {
        try await signIn()
        let plain = try await authctl.run(["token"])
        let key = try await seal()
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let invocation = AuthctlInvocation(
            arguments: ["token"],
            io: authctl.io(stdin: ScriptedInput(Data(), isTerminal: false), stdout: stdout, stderr: stderr, environment: environment))
        #expect(invocation.finishWithoutConcurrency() == 0, "answered before any task: \(stderr.text)")
        #expect(stdout.text == plain.stdout)
        let async = try await authctl.run(["token", "-vq"], environment: environment)
        #expect(async.status == 0 && async.stdout == plain.stdout)
    }

    @Test("a refresh on a sealed keystore works and writes it sealed again; without the key both paths fail the same way (6)")
    func sealedRefresh() async throws {
        try await signIn()
        let key = try await seal()
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        let refreshed = try await authctl.run(["token", "--force-refresh"], environment: environment)
        #expect(refreshed.status == 0 && refreshed.stdout.hasPrefix("at-"), "\(refreshed.stderr) \(refreshed.status)")
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(text.contains("\"version\" : 3") && !text.contains(refreshed.stdout.trimmingCharacters(in: .newlines)))
        #expect(try await authctl.run(["token"], environment: environment).stdout == refreshed.stdout)
        // Without the variable the keystore's own key file opens it; without that file too, nothing does.
        #expect(try await authctl.run(["token"]).stdout == refreshed.stdout)
        #expect(rename(key, key + ".away") == 0)
        let fast = try await authctl.run(["token"])
        let async = try await authctl.run(["token", "-vq"])
        #expect(fast.status == 6 && async.status == 6 && fast.stderr == async.stderr && fast.stderr.contains("AUTHCTL_KEYSTORE_KEY_FILE"))
    }
}
