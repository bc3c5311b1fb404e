import AuthCore
import Foundation
import Testing

/// Secret, key and certificate files are small: one that is not (a wrong path, a device, a
/// file another program keeps growing) is refused, never read whole into memory.
@Suite("Secret files are read bounded")
struct SecretFileLimitTests {
    @Test("a client secret, private key or certificate file over 64 KiB is refused naming the file; one under it is read")
    func bounded() throws {
        let directory = NSTemporaryDirectory() + "authctl-secret-limit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let large = directory + "/large", small = directory + "/small"
        #expect(
            FileManager.default.createFile(
                atPath: large, contents: Data(repeating: 0x41, count: 65 * 1024 + 1), attributes: [.posixPermissions: 0o600]))
        #expect(FileManager.default.createFile(atPath: small, contents: Data("s3cret\n".utf8), attributes: [.posixPermissions: 0o600]))
        let source = ProcessSecretSource(environment: [:])
        let reads: [(String) throws -> String] = [source.fileContents, source.privateKey, { try source.certificateFile($0) }]
        for read in reads {
            #expect { _ = try read(large) } throws: { error in
                guard let error = error as? AuthError else { return false }
                return error.code == .providerNotConfigured && error.message.contains(large) && error.message.contains("64 KiB")
            }
            #expect(try read(small).hasPrefix("s3cret"))
        }
    }
}

/// A federated token file another local user owns or may write could hold a JWT of theirs,
/// which authctl would present as the workload's (docs/ci.md).
@Suite("Federated token files")
struct FederatedTokenFileOwnerTests {
    @Test(
        "a federated token file another user owns, or that others may write, is refused; root's (Kubernetes) and ours are read",
        .enabled(if: geteuid() == 0, "needs root to give the file to another user (CI runs as root)"))
    func owner() throws {
        let directory = NSTemporaryDirectory() + "authctl-federated-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/token"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("eyJ.eyJ.sig\n".utf8), attributes: [.posixPermissions: 0o644]))
        let source = ProcessSecretSource(environment: [:])
        #expect(try source.federatedTokenFile(path) == "eyJ.eyJ.sig")
        chown(path, 65534, 65534)
        #expect { _ = try source.federatedTokenFile(path) } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured && ($0 as? AuthError)?.message.contains("uid 65534") == true
        }
        chown(path, 0, 0)
        chmod(path, 0o666)
        #expect { _ = try source.federatedTokenFile(path) } throws: { ($0 as? AuthError)?.message.contains("others may write") == true }
    }
}
