import AuthCoreTestSupport
import Foundation

@testable import AuthCore

/// A suite whose tests each get a private directory (0700) under $TMPDIR for a keystore
/// file, removed when the suite's instance goes (its `deinit`).
protocol KeystoreDirectoryFixture: AnyObject {
    var directory: String { get }
}

extension KeystoreDirectoryFixture {
    /// A new private directory named after `name`.
    static func privateDirectory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    var path: String { directory + "/keystore.json" }

    func keystore(_ keys: KeystoreKeys = KeystoreKeys()) -> FileKeystore {
        FileKeystore(path: path, random: SystemRandomSource(), lockTimeout: 2, clock: SystemClock(), keys: keys)
    }
}
