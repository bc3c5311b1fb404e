import Foundation
import Testing

@Suite("The configuration file's directory")
struct ConfigDirectoryTests {
    @Test(
        "providers add into a directory of one's own that its group can write to is refused as a configuration problem (exit 7), naming chmod 700"
    )
    func unsafeDirectoryOnWrite() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let directory = authctl.home + "/shared"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o770)
        let result = try await authctl.run([
            "providers", "add", "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--config", directory + "/config.json",
            "--no-check",
        ])
        #expect(result.status == 7, "\(result.stderr)")
        #expect(result.stderr.contains("chmod 700"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/config.json"))
        // Reading it is refused the same way.
        let list = try await authctl.run(["providers", "list", "--config", directory + "/config.json"])
        #expect(list.status == 7, "\(list.stderr)")
    }
}
