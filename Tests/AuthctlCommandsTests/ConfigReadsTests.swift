import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// config.json is read (and validated) once per command: the wiring loads it, chooses the
/// backend from it, and every use case works from what it found (issue 23).
@Suite("A command reads its configuration once")
struct ConfigReadsTests {
    /// `authctl` whose config.json reads are counted.
    func counted() -> (InProcessAuthctl, CountingConfigStorage) {
        var authctl = InProcessAuthctl()
        let storage = CountingConfigStorage(FileConfigStorage(path: authctl.configPath, random: SystemRandomSource()))
        authctl.configStorage = { _ in storage }
        return (authctl, storage)
    }

    @Test("a login through the browser reads config.json once, with the provider named or not")
    func login() async throws {
        let provider = try FakeIdentityProvider()
        let (authctl, storage) = counted()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        try await authctl.addFakeProvider(provider)
        for arguments in [["login", "oidc.fake"], ["login"]] {
            let before = storage.reads
            let login = try await authctl.run(arguments + ["--timeout", "120"])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(storage.reads - before == 1, "\(arguments)")
        }
    }

    @Test("a login brokered by Firebase reads config.json once")
    func firebaseLogin() async throws {
        let firebase = try FakeFirebaseAuth()
        let provider = try FakeIdentityProvider()
        firebase.enable("oidc.corp", provider: provider, clientSecret: "console-secret")
        let (authctl, storage) = counted()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let use = try await authctl.run([
            "backend", "use", "firebase", "--project", firebase.projectID, "--api-key", firebase.apiKey, "--emulator",
            firebase.emulatorHost,
        ])
        #expect(use.status == 0, "\(use.stderr)")
        let before = storage.reads
        let login = try await authctl.run(["login", "oidc.corp", "--timeout", "120"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(storage.reads - before == 1)
    }
}
