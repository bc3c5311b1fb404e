import Foundation
import Testing

@Suite("authctl --version")
struct VersionTests {
    @Test("--version names the version and the commit it was built from")
    func version() async throws {
        let authctl = AuthctlProcess()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.wholeMatch(of: /authctl \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,40}(-dirty)?|unknown)\)/) != nil, "\(line)")
        // scripts/test.sh builds with AUTHCTL_COMMIT set: the binary must carry that commit.
        if let commit = ProcessInfo.processInfo.environment["AUTHCTL_COMMIT"], !commit.isEmpty {
            #expect(line.hasSuffix("(commit \(commit))"), "\(line)")
        }
    }

    @Test("--version names the newest release of CHANGELOG.md, which has a date")
    func releasedVersion() async throws {
        let authctl = AuthctlProcess()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let release = try #require(changelog.firstMatch(of: /\n## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})\n/))
        let words = try await authctl.run(["--version"]).stdout.split(separator: " ")
        #expect(words.count > 1 && words[1] == release.1, "CHANGELOG's newest release \(release.1) vs \(words)")
    }
}
