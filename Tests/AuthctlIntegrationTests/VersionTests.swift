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
}
