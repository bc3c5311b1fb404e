import Foundation
import Testing

@testable import AuthCore

/// Every keystore the tests know (`KeystoreRecordReaderTests.keystores()`), each user made
/// the current one in turn, written to the directory `AUTHCTL_KEYSTORE_CORPUS` names: the
/// token front's agreement test (Tests/Front/run-front-test.sh) runs the front and the full
/// program on each. Without the variable it writes nothing.
@Suite("The keystore corpus, for the token front's agreement test")
struct KeystoreCorpusExportTests {
    @Test("writes every keystore of the tests, each user current in turn")
    func export() throws {
        guard let directory = ProcessInfo.processInfo.environment["AUTHCTL_KEYSTORE_CORPUS"], !directory.isEmpty else { return }
        var count = 0
        for keystore in try KeystoreRecordReaderTests.keystores() {
            let name = String(keystore.name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            for (index, record) in try KeystoreRecordReaderTests.records(in: keystore.data).enumerated() {
                let path = "\(directory)/\(name)-user\(index).json"
                try record.file.write(to: URL(fileURLWithPath: path))
                count += 1
            }
        }
        #expect(count >= 20)
    }
}
