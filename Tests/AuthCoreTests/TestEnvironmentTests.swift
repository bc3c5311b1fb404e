import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The suite leaves nothing behind in $TMPDIR (issue 13's target): a test environment
/// removes its configuration directory, and the Apple key file it wrote, when it goes.
@Suite("test environments clean up after themselves")
struct TestEnvironmentTests {
    @Test("an OIDC test environment's directory is gone once the environment is")
    func directoryRemoved() async throws {
        let provider = try FakeIdentityProvider()
        var directory = ""
        do {
            let test = try await TestEnvironment(provider: provider)
            directory = test.directory
            #expect(FileManager.default.fileExists(atPath: directory))
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("an Apple test environment's key file is gone once the environment is")
    func appleKeyRemoved() async throws {
        let apple = try FakeApple()
        var keyFile = ""
        do {
            let test = try await TestEnvironment(apple: apple)
            keyFile = try #require(try test.configStore.load().providers["apple.com"]?.privateKeyFile)
            #expect(FileManager.default.fileExists(atPath: keyFile))
        }
        #expect(!FileManager.default.fileExists(atPath: keyFile))
    }
}
