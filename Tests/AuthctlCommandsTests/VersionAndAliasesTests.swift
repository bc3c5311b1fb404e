import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What a user of gh, az and kubectl types by habit (issue 25, item 14): `authctl version`,
/// `authctl logout`, `--version --json`, and examples in the help of the main commands.
@Suite("version, logout and examples in --help")
struct VersionAndAliasesTests {
    let authctl = InProcessAuthctl()

    @Test("authctl version prints what --version prints")
    func versionCommand() async throws {
        let flag = try await authctl.run(["--version"])
        let command = try await authctl.run(["version"])
        #expect(flag.status == 0 && command.status == 0, "\(command.stderr)")
        #expect(command.stdout == flag.stdout && command.stdout.hasPrefix("authctl "))
    }

    @Test(
        "version --json, --version --json and --json --version print one JSON document with the version and the commit",
        arguments: [["version", "--json"], ["--version", "--json"], ["--json", "--version"]])
    func versionJSON(_ arguments: [String]) async throws {
        let result = try await authctl.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json, "\(result.stdout)")
        #expect(json["version"]?.stringValue?.split(separator: ".").count == 3)
        #expect(json["commit"]?.stringValue?.isEmpty == false)
    }

    @Test("authctl logout is signout: the same words, --all and --json")
    func logout() async throws {
        for extra in [[], ["--all"], ["--json"]] {
            let signout = try await authctl.run(["signout"] + extra)
            let logout = try await authctl.run(["logout"] + extra)
            #expect(logout.status == signout.status, "\(logout.stderr)")
            #expect(logout.stdout == signout.stdout && logout.stderr == signout.stderr)
        }
    }

    @Test("the help of the main commands ends with examples", arguments: ["login", "token", "exec", "status", "signout", "link"])
    func examples(_ command: String) async throws {
        let help = try await authctl.run([command, "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"), "\(command) --help")
        #expect(help.stdout.contains("authctl \(command)"), "\(command) --help")
    }
}
