import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// The man page (issue 15, item 8): the sections a man page has, global options once, the
/// exit statuses of the code, no warnings from groff, and current with the commands.
@Suite("the man page")
struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let page = (try? String(contentsOf: root.appendingPathComponent("docs/authctl.1"), encoding: .utf8)) ?? ""

    func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (status, stdout, stderr) = await OffPool.finish(process, stdout: out, stderr: err)
        return (status, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("it has NAME, SYNOPSIS, DESCRIPTION, COMMANDS, OPTIONS, ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES and SEE ALSO, in that order")
    func sections() {
        let names = page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map {
            String($0.dropFirst(4)).replacingOccurrences(of: "\"", with: "")
        }
        #expect(
            names == [
                "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO",
            ],
            "\(names)")
    }

    @Test("the global options are described once, not under every command")
    func globalOptionsOnce() {
        for option in ["Fl -keystore", "Fl -config", "Fl -json", "Fl -verbose", "Fl -quiet"] {
            #expect(page.components(separatedBy: option).count - 1 == 1, "\(option)")
        }
    }

    @Test("EXIT STATUS lists every exit status and code authctl has")
    func exitStatus() {
        for code in AuthError.Code.allCases {
            #expect(page.contains(".It Sy \(code.exitStatus) Pq Li \(code.rawValue)"), "\(code.rawValue)")
        }
    }

    @Test("groff formats it without a warning")
    func groffClean() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            Issue.record("groff is missing: scripts/setup.sh installs groff-base")
            return
        }
        let result = try await run("/usr/bin/groff", ["-ww", "-mandoc", "-z", Self.root.appendingPathComponent("docs/authctl.1").path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("it is current: scripts/gen-man.py writes the committed page from this binary's commands")
    func current() async throws {
        let result = try await run(
            "/usr/bin/env", ["python3", Self.root.appendingPathComponent("scripts/gen-man.py").path, AuthctlProcess.binary, "2026-11-29"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == page, "docs/authctl.1 is stale: run scripts/update-completions.sh")
    }

    /// Every command path of the binary, from its help dump.
    func commandPaths() async throws -> [[String]] {
        let dump = try await run(AuthctlProcess.binary, ["--experimental-dump-help"])
        func walk(_ command: [String: JSONValue]?, _ path: [String]) -> [[String]] {
            guard let command else { return [] }
            return [path]
                + (command["subcommands"]?.arrayValue ?? []).flatMap { sub -> [[String]] in
                    guard let name = sub.objectValue?["commandName"]?.stringValue else { return [] }
                    return walk(sub.objectValue, path + [name])
                }
        }
        return walk(JSONValue.object(from: Data(dump.stdout.utf8))?["command"]?.objectValue, [])
    }

    @Test("no help text and no part of the man page points at docs/ of the source, which is not installed (issue 25, item 15)")
    func noSourcePaths() async throws {
        #expect(!page.contains("docs/"), "the man page names docs/")
        let paths = try await commandPaths()
        #expect(paths.count > 20)
        for path in paths {
            let help = try await run(AuthctlProcess.binary, path + ["--help"])
            #expect(!help.stdout.contains("docs/"), "authctl \(path.joined(separator: " ")) --help names docs/")
        }
    }
}
