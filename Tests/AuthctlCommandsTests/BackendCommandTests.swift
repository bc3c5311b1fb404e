import AuthCore
import Foundation
import Testing

/// `backend use|show` (docs/firebase.md): config.json holds the backend, validated like the rest; the
/// API key is never printed.
@Suite("backend use and show")
struct BackendCommandTests {
    static let key = "AIzaSyD-test-\(UUID().uuidString.prefix(8))"

    @Test("backend use firebase is kept in config.json and shown without the API key; backend use local goes back")
    func useAndShow() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let shownLocal = try await authctl.run(["backend", "show"])
        #expect(shownLocal.status == 0)
        #expect(shownLocal.stdout.contains("local"))
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", "my-app-1a2b3", "--api-key", Self.key, "--tenant-id", "tenant-1",
            "--emulator", "127.0.0.1:9099",
        ])
        #expect(use.status == 0, "\(use.stderr)")
        let file = try #require(FileManager.default.contents(atPath: authctl.configPath))
        let config = try #require(JSONValue.object(from: file))
        #expect(config["backend"] == "firebase")
        #expect(config["firebase"]?.objectValue?["projectId"] == "my-app-1a2b3")
        let shown = try await authctl.run(["backend", "show"])
        #expect(shown.stdout.contains("my-app-1a2b3"))
        #expect(shown.stdout.contains("127.0.0.1:9099"))
        let json = try await authctl.run(["backend", "show", "--json"])
        #expect(json.json?["backend"] == "firebase")
        #expect(json.json?["apiKeySet"] == true)
        #expect(json.json?["tenantId"] == "tenant-1")
        for output in [use.stdout, use.stderr, shown.stdout, json.stdout] { #expect(!output.contains(Self.key)) }
        // The environment variable overrides --emulator.
        let overridden = try await authctl.run(["backend", "show"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "localhost:9199"])
        #expect(overridden.stdout.contains("localhost:9199"))
        let local = try await authctl.run(["backend", "use", "local"])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(try await authctl.run(["backend", "show", "--json"]).json?["backend"] == "local")
    }

    @Test(
        "a bad value of backend use is refused with exit 2 naming the rule, and nothing is written",
        arguments: [
            (["firebase", "--project", "My_App", "--api-key", "k"], "Firebase project id"),
            (["firebase", "--project", "my-app", "--api-key", "bad key!"], "API key"),
            (["firebase", "--project", "my-app", "--api-key", "k", "--emulator", "10.0.0.5:9099"], "--emulator"),
            (["firebase", "--project", "my-app", "--api-key", "k", "--emulator", "127.0.0.1"], "--emulator"),
            (["firebase", "--project", "my-app", "--api-key", "k", "--tenant-id", "a/b"], "tenant id"),
            (["firebase", "--project", "my-app"], "--api-key"),
            (["local", "--project", "my-app"], "takes no option"),
            (["remote"], "local"),
        ])
    func refused(arguments: [String], rule: String) async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["backend", "use"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(rule), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("bad key!"))
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath), "\(arguments): nothing saved")
    }

    @Test("a config.json edited by hand with a bad backend fails on load naming the file and the field (exit 7)")
    func editedByHand() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        for (content, field) in [
            (#"{"version":1,"providers":{},"backend":"cloud"}"#, "\"backend\""),
            (#"{"version":1,"providers":{},"backend":"firebase"}"#, "\"firebase\""),
            (#"{"version":1,"providers":{},"backend":"firebase","firebase":{"projectId":"x","apiKey":"k"}}"#, "firebase.projectId"),
        ] {
            try FileManager.default.createDirectory(
                atPath: (authctl.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(
                atPath: authctl.configPath, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600])
            let result = try await authctl.run(["backend", "show"])
            #expect(result.status == 7, "\(content): \(result.stderr)")
            #expect(result.stderr.contains(field), "\(content): \(result.stderr)")
            #expect(result.stderr.contains(authctl.configPath))
        }
    }
}
