import AuthCoreTestSupport
import Foundation
import Testing

/// Completions from the user's own files (issue 15, item 10): provider ids from the
/// configuration, uids from the keystore, through the committed scripts in a real bash, zsh
/// and fish; what they offer is never expanded by the shell (issue 22, item 7).
@Suite("completions complete provider ids and uids", .serialized)
final class CompletionTests {
    let authctl = AuthctlProcess()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// What bash offers for `line` (the cursor at its end), with completions/authctl.bash
    /// loaded and authctl on PATH.
    func bashCompletes(_ line: String, bin: String = URL(fileURLWithPath: AuthctlProcess.binary).deletingLastPathComponent().path)
        async throws -> [String]
    {
        let script = Self.root.appendingPathComponent("completions/authctl.bash").path
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _authctl authctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"   # as bash's complete -F calls it
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try await shell("/bin/bash", ["--norc", "-c", program], bin: bin)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines `shell arguments` prints, with `bin` first on PATH.
    func shell(_ shell: String, _ arguments: [String], bin: String) async throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        var environment = authctl.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = await OffPool.finish(process, stdout: output).stdout
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("login, token and providers show complete the configured provider ids; users use completes the uids")
    func fromTheFiles() async throws {
        let provider = try FakeIdentityProvider()
        for id in ["oidc.corp", "oidc.home"] {
            #expect(
                try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID]).status == 0)
        }
        #expect(Set(try await bashCompletes("authctl login ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(try await bashCompletes("authctl login oidc.c") == ["oidc.corp"])
        #expect(Set(try await bashCompletes("authctl providers show ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(Set(try await bashCompletes("authctl token ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(Set(try await bashCompletes("authctl git-credential ")).isSuperset(of: ["oidc.corp", "oidc.home"]))
        #expect(try await bashCompletes("authctl exec --provider oidc.h") == ["oidc.home"])

        let login = try await authctl.run([
            "login", "oidc.corp", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20", "--json",
        ])
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(try await bashCompletes("authctl users use ") == [uid])
        let completed = try await bashCompletes("authctl users show \(uid.prefix(3))")
        #expect(completed == [uid], "uid \(uid): \(completed)")
    }

    /// Issue 22, item 7: what completion offers comes from files (the keystore, the
    /// configuration) that someone else may have written.
    var planted: String { authctl.home + "/planted" }

    @Test("a uid planted in the keystore with shell syntax runs nothing when users use is completed; the keystore is refused")
    func plantedUID() async throws {
        try FileManager.default.createDirectory(
            atPath: (authctl.keystorePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let users = try ["$(touch \(planted)-1)", "`touch \(planted)-2`"].map { uid in
            """
            {"uid": \(String(decoding: try JSONEncoder().encode(uid), as: UTF8.self)), "emailVerified": false,
             "createdAt": "2026-01-01T00:00:00Z", "lastSignInAt": "2026-01-01T00:00:00Z", "lastAuthAt": "2026-01-01T00:00:00Z",
             "providerData": []}
            """
        }
        let keystore = Data("{\"version\": 1, \"users\": [\(users.joined(separator: ","))]}".utf8)
        #expect(FileManager.default.createFile(atPath: authctl.keystorePath, contents: keystore, attributes: [.posixPermissions: 0o600]))
        #expect(try await bashCompletes("authctl users use ").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: planted + "-1"))
        #expect(!FileManager.default.fileExists(atPath: planted + "-2"))
        let listed = try await authctl.run(["users", "list"])
        #expect(listed.status == 6)
        #expect(listed.stderr.contains(authctl.keystorePath) && listed.stderr.contains("uid"), "\(listed.stderr)")
        #expect(authctl.keystoreBytes() == keystore)
    }

    /// A stand-in for authctl on PATH that answers every completion request with `candidates`.
    func standIn(answering candidates: [String]) throws -> String {
        let bin = authctl.home + "/stand-in"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let lines = candidates.map { "printf '%s\\n' '\($0)'" }.joined(separator: "\n")
        // ArgumentParser's zsh answer ends with a line the script drops (so a last empty
        // candidate survives the command substitution).
        let script = "#!/bin/sh\n\(lines)\n[ \"$SAP_SHELL\" = zsh ] && printf ' \\n'\nexit 0\n"
        #expect(
            FileManager.default.createFile(atPath: bin + "/authctl", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        return bin
    }

    var hostileCandidates: [String] {
        ["uid-$(touch \(planted)-1)", "uid-`touch \(planted)-2`", "uid-${HOME}", "uid-~root"]
    }

    @Test("bash offers the candidates authctl prints as they are: none goes through word expansion")
    func bashDoesNotExpand() async throws {
        let bin = try standIn(answering: hostileCandidates)
        let offered = try await bashCompletes("authctl users use uid-", bin: bin)
        #expect(!FileManager.default.fileExists(atPath: planted + "-1"))
        #expect(!FileManager.default.fileExists(atPath: planted + "-2"))
        #expect(offered == hostileCandidates, "\(offered)")
        #expect(try await bashCompletes("authctl users use uid-$", bin: bin) == hostileCandidates.filter { $0.hasPrefix("uid-$") })
        #expect(try await bashCompletes("authctl users use uid-~", bin: bin) == ["uid-~root"])
    }

    @Test("zsh hands the candidates authctl prints to _describe as they are: none goes through expansion")
    func zshDoesNotExpand() async throws {
        let bin = try standIn(answering: hostileCandidates)
        let script = Self.root.appendingPathComponent("completions/_authctl").path
        // The script's own custom-completion function, with compsys's _describe replaced by a
        // printer of what it is given.
        let program = """
            compdef() { :; }
            source '\(script)'
            export SAP_SHELL=zsh
            __authctl_complete() { printf '%s\\n' "$@"; }
            command_name=authctl; command_line=(authctl users use ''); current_word_index=3
            __authctl_custom_complete ---completion users use -- positional@0 3 0
            """
        let offered = try await shell("/usr/bin/zsh", ["-f", "-c", program], bin: bin)
        #expect(!FileManager.default.fileExists(atPath: planted + "-1"))
        #expect(!FileManager.default.fileExists(atPath: planted + "-2"))
        #expect(offered == hostileCandidates, "\(offered)")
    }

    @Test("fish offers the candidates authctl prints as they are: none goes through expansion")
    func fishDoesNotExpand() async throws {
        let bin = try standIn(answering: hostileCandidates)
        let script = Self.root.appendingPathComponent("completions/authctl.fish").path
        let program = "source '\(script)'; complete -C 'authctl users use uid-'"
        let offered = try await shell("/usr/bin/fish", ["--no-config", "-c", program], bin: bin).map { String($0.prefix { $0 != "\t" }) }
        #expect(!FileManager.default.fileExists(atPath: planted + "-1"))
        #expect(!FileManager.default.fileExists(atPath: planted + "-2"))
        #expect(Set(offered) == Set(hostileCandidates), "\(offered)")
    }

    // Issue 25, item 13: `authctl completion SHELL`, and paths completed as paths.

    @Test("authctl completion bash|zsh|fish prints the committed script, as --generate-completion-script does")
    func completionCommand() async throws {
        for (shell, file) in [("bash", "authctl.bash"), ("zsh", "_authctl"), ("fish", "authctl.fish")] {
            let printed = try await authctl.run(["completion", shell])
            #expect(printed.status == 0, "\(printed.stderr)")
            let committed = try String(contentsOf: Self.root.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            #expect(printed.stdout == committed, "completion \(shell)")
        }
        let unknown = try await authctl.run(["completion", "tcsh"])
        #expect(unknown.status == 2 && unknown.stderr.contains("bash"), "\(unknown.stderr)")
    }

    /// A directory with one file in it, for the path completions.
    func directoryWithAFile() throws -> String {
        let directory = authctl.home + "/paths"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory + "/exported-users.json", contents: Data("{}".utf8)))
        return directory
    }

    @Test("users import FILE and the options that take a file complete paths in bash")
    func bashCompletesPaths() async throws {
        let directory = try directoryWithAFile()
        for line in [
            "authctl users import \(directory)/exp", "authctl status --keystore \(directory)/exp",
            "authctl providers add oidc.x --client-secret-file \(directory)/exp", "authctl keystore seal --key-file \(directory)/exp",
            "authctl login oidc.x --client-credentials --certificate-file \(directory)/exp",
        ] {
            #expect(try await bashCompletes(line) == ["\(directory)/exported-users.json"], "\(line)")
        }
    }

    @Test("users import FILE and the options that take a file complete paths in fish and zsh")
    func fishAndZshCompletePaths() async throws {
        let directory = try directoryWithAFile()
        let fish = Self.root.appendingPathComponent("completions/authctl.fish").path
        let bin = URL(fileURLWithPath: AuthctlProcess.binary).deletingLastPathComponent().path
        for line in ["authctl users import \(directory)/exp", "authctl status --config \(directory)/exp"] {
            let offered = try await shell("/usr/bin/fish", ["--no-config", "-c", "source '\(fish)'; complete -C '\(line)'"], bin: bin)
                .map { String($0.prefix { $0 != "\t" }) }
            #expect(offered == ["\(directory)/exported-users.json"], "\(line): \(offered)")
        }
        // zsh: the generated script hands these to _files (compsys needs a terminal to run).
        let zsh = try String(contentsOf: Self.root.appendingPathComponent("completions/_authctl"), encoding: .utf8)
        for option in ["--keystore", "--config", "--client-secret-file", "--key-file", "--certificate-file", "--private-key-file"] {
            let lines = zsh.split(separator: "\n").filter { $0.contains("'\(option)[") }
            #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("_files") }, "\(option): \(lines)")
        }
        let importLines = zsh.split(separator: "\n").drop { !$0.contains("_authctl_users_import()") }.prefix(8)
        #expect(importLines.contains { $0.contains(":file:_files") || $0.contains("_files") }, "\(Array(importLines))")
    }
}
