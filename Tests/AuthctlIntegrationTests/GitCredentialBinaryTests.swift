import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl git-credential` as git runs it: a real `git clone` over smart HTTP from a local
/// server that accepts only the token the fake provider issued to the signed-in user.
@Suite("authctl as git's credential helper", .serialized)
final class GitCredentialBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()
    let root: String
    /// git's configuration: no system file, a global file of the test's own.
    let globalConfig: String

    init() throws {
        provider = try FakeIdentityProvider()
        root = authctl.home + "/git"
        globalConfig = root + "/gitconfig"
        try FileManager.default.createDirectory(atPath: root + "/srv", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: globalConfig, contents: Data())
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// authctl's environment (its private home) plus git kept to itself: no system or user
    /// configuration, never a prompt.
    var gitEnvironment: [String: String] {
        var environment = authctl.environment
        for key in environment.keys where key.hasPrefix("GIT_") { environment[key] = nil }
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = globalConfig
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = nil
        environment["SSH_ASKPASS"] = nil
        environment["GIT_AUTHOR_NAME"] = "Test"
        environment["GIT_AUTHOR_EMAIL"] = "test@example.com"
        environment["GIT_COMMITTER_NAME"] = "Test"
        environment["GIT_COMMITTER_EMAIL"] = "test@example.com"
        return environment
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs git (or authctl) to completion, stdin from `input` (nothing: /dev/null).
    func run(_ executable: String, _ arguments: [String], input: String? = nil, directory: String? = nil) async throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        process.environment = gitEnvironment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input {
            // The helper may stop reading (a description too large) and exit: a write to the closed
            // pipe is then EPIPE, not SIGPIPE for the test process.
            signal(SIGPIPE, SIG_IGN)
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let (status, out, err) = await OffPool.finish(process, stdout: stdout, stderr: stderr)
        return Run(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    func git(_ arguments: [String], input: String? = nil, directory: String? = nil) async throws -> Run {
        let result = try await run("git", arguments, input: input, directory: directory)
        return result
    }

    func gitCredential(_ arguments: [String], input: String) async throws -> Run {
        try await run(AuthctlProcess.binary, ["git-credential"] + arguments, input: input)
    }

    /// A bare repository `srv/repo.git` with one commit holding README.
    func makeRepository() async throws {
        let work = root + "/work"
        #expect(try await git(["init", "-q", work]).status == 0)
        try Data("hello from the server\n".utf8).write(to: URL(fileURLWithPath: work + "/README"))
        #expect(try await git(["add", "README"], directory: work).status == 0)
        let commit = try await git(["commit", "-q", "-m", "first"], directory: work)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(try await git(["clone", "-q", "--bare", work, root + "/srv/repo.git"]).status == 0)
    }

    func signIn() async throws -> String {
        try await authctl.addFakeProvider(provider)
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
        let token = try await authctl.run(["token", "oidc.fake"])
        return token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacing("'", with: #"'\''"#) + "'" }

    @Test("git clone succeeds with authctl's helper, the server saw the signed-in user's token; without the helper the clone fails")
    func cloneWithTheHelper() async throws {
        let server = try GitSmartHTTPServer(root: root + "/srv")
        try await makeRepository()
        let token = try await signIn()
        #expect(token.hasPrefix("at-"))
        server.expect(token: token)
        let url = server.baseURL + "/repo.git"

        let without = try await git(["clone", "-q", url, root + "/without"])
        #expect(without.status != 0, "no helper, no prompt: the clone fails")
        #expect(server.accepted == 0 && server.refused > 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/without/README"))

        let helper = "!\(Self.shellQuoted(AuthctlProcess.binary)) git-credential oidc.fake"
        #expect(try await git(["config", "--global", "credential.helper", helper]).status == 0)
        let keystoreBefore = authctl.keystoreBytes()
        let with = try await git(["clone", "-q", url, root + "/with"])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(FileManager.default.contents(atPath: root + "/with/README") == Data("hello from the server\n".utf8))
        #expect(server.accepted > 0, "the server accepted the token authctl gave git")
        #expect(server.acceptedSchemes.allSatisfy { $0 == "Basic" }, "git 2.39 sends the token as a Basic password")
        #expect(!with.stderr.contains(token) && !with.stdout.contains(token))
        // git called `store` after the clone succeeded: it changed nothing.
        #expect(authctl.keystoreBytes() == keystoreBefore)

        // A token the server does not know (another sign-in's) gets nowhere: git fails, no retry loop.
        server.expect(token: "at-someone-else")
        let stale = try await git(["clone", "-q", url, root + "/stale"])
        #expect(stale.status != 0)
    }

    @Test("git credential fill through the helper: the token as password, a username, the expiry")
    func credentialFill() async throws {
        let token = try await signIn()
        let helper = "!\(Self.shellQuoted(AuthctlProcess.binary)) git-credential oidc.fake"
        #expect(try await git(["config", "--global", "credential.helper", helper]).status == 0)
        let fill = try await git(["credential", "fill"], input: "protocol=https\nhost=git.example.com\npath=team/repo.git\n\n")
        #expect(fill.status == 0, "\(fill.stderr)")
        #expect(fill.stdout.contains("password=\(token)\n"))
        #expect(fill.stdout.contains("username=ada@example.com\n"))
        #expect(fill.stdout.contains("protocol=https\nhost=git.example.com\n"))

        // The same through git with the capability announced: git < 2.46 drops it before asking
        // the helper (and gets the password); a later git passes it on and gets the credential.
        let announced = try await git(
            ["credential", "fill"], input: "capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n")
        #expect(announced.status == 0, "\(announced.stderr)")
        let version = try await git(["--version"]).stdout
        let numbers = version.split(separator: " ").last?.split(separator: ".").prefix(2).compactMap { Int($0) } ?? []
        if numbers.count == 2, (numbers[0], numbers[1]) >= (2, 46) {
            #expect(announced.stdout.contains("authtype=Bearer\ncredential=\(token)\n"), "\(version)")
        } else {
            #expect(announced.stdout.contains("password=\(token)\n") && !announced.stdout.contains("credential="), "\(version)")
        }
    }

    @Test("when git announces capability[]=authtype (git ≥ 2.46) the helper answers with a Bearer credential, marked ephemeral")
    func authTypeCapability() async throws {
        let token = try await signIn()
        let answer = try await gitCredential(
            ["oidc.fake", "get"], input: "capability[]=authtype\nprotocol=https\nhost=dev.azure.com\npath=contoso/_git/repo\n\n")
        #expect(answer.status == 0, "\(answer.stderr)")
        let lines = answer.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["capability[]=authtype", "authtype=Bearer", "credential=\(token)", "ephemeral=true"])
        #expect(lines.count == 5 && lines[4].hasPrefix("password_expiry_utc="))
        #expect(!answer.stdout.contains("password=") && !answer.stdout.contains("username="))
        #expect(answer.stderr.isEmpty)
        // What a git ≥ 2.46 would then send is what the server accepts.
        let server = try GitSmartHTTPServer(root: root + "/srv")
        server.expect(token: token)
        #expect(server.isAuthorized("Bearer \(token)") && !server.isAuthorized("Bearer at-other"))
        // --scope before the operation git appends: a token for those scopes, not the session's.
        let scoped = try await gitCredential(["oidc.fake", "--scope", "api://git/.default", "get"], input: "protocol=https\nhost=h\n\n")
        #expect(scoped.status == 0, "\(scoped.stderr)")
        #expect(scoped.stdout.hasPrefix("username=ada@example.com\npassword=at-") && !scoped.stdout.contains(token))
        let capability = try await gitCredential(["oidc.fake", "capability"], input: "")
        #expect(capability.status == 0 && capability.stdout == "version 0\ncapability authtype\n")
    }

    @Test("a get that cannot give a token prints nothing on stdout and fails, so git asks elsewhere; store and erase change nothing")
    func failuresAndNoOps() async throws {
        let description = "protocol=https\nhost=git.example.com\n\n"
        let signedOut = try await gitCredential(["oidc.fake", "get", "--json"], input: description)
        #expect(signedOut.status != 0 && signedOut.stdout.isEmpty, "even with --json: stdout is git's")
        #expect(signedOut.stderr.hasPrefix("authctl: "))

        _ = try await signIn()
        let keystore = authctl.keystoreBytes()
        for operation in ["store", "erase", "some-future-operation"] {
            let result = try await gitCredential(
                ["oidc.fake", operation], input: "protocol=https\nhost=git.example.com\nusername=x\npassword=at-1\n\n")
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(operation): \(result.stderr)")
        }
        #expect(authctl.keystoreBytes() == keystore)

        let cleartext = try await gitCredential(["oidc.fake", "get"], input: "protocol=http\nhost=git.example.com\n\n")
        #expect(cleartext.status == 2 && cleartext.stdout.isEmpty, "\(cleartext.stderr)")
        let other = try await gitCredential(["oidc.other", "get"], input: description)
        #expect(other.status != 0 && other.stdout.isEmpty)
        let huge = "protocol=https\n" + String(repeating: "wwwauth[]=" + String(repeating: "x", count: 1000) + "\n", count: 300)
        let tooLarge = try await gitCredential(["oidc.fake", "get"], input: huge)
        #expect(tooLarge.status == 2 && tooLarge.stdout.isEmpty, "\(tooLarge.stderr)")
    }
}
