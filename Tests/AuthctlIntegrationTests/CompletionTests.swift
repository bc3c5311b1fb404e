import AuthCoreTestSupport
import Foundation
import Testing

/// Completions from the user's own files (issue 15, item 10): provider ids from the
/// configuration, uids from the keystore, through the committed bash script in a real bash.
@Suite("completions complete provider ids and uids", .serialized)
final class CompletionTests {
    let authctl = AuthctlProcess()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// What bash offers for `line` (the cursor at its end), with completions/authctl.bash
    /// loaded and authctl on PATH.
    func bashCompletes(_ line: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("completions/authctl.bash").path
        let bin = URL(fileURLWithPath: AuthctlProcess.binary).deletingLastPathComponent().path
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _authctl authctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"   # as bash's complete -F calls it
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", program]
        var environment = authctl.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("login, token and providers show complete the configured provider ids; users use completes the uids")
    func fromTheFiles() async throws {
        let provider = try FakeIdentityProvider()
        for id in ["oidc.corp", "oidc.home"] {
            #expect(
                try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID]).status == 0)
        }
        #expect(Set(try bashCompletes("authctl login ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(try bashCompletes("authctl login oidc.c") == ["oidc.corp"])
        #expect(Set(try bashCompletes("authctl providers show ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(Set(try bashCompletes("authctl token ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(Set(try bashCompletes("authctl git-credential ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(try bashCompletes("authctl exec --provider oidc.h") == ["oidc.home"])

        let login = try await authctl.run([
            "login", "oidc.corp", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20", "--json",
        ])
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(try bashCompletes("authctl users use ") == [uid])
        let completed = try bashCompletes("authctl users show \(uid.prefix(3))")
        #expect(completed == [uid], "uid \(uid): \(completed)")
    }
}
