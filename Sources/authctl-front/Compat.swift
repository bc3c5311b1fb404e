import FrontLibc

// What the shared readers (AuthCore's KeystoreScan.swift and KeystoreRecordReader.swift,
// compiled into the front as they are) take from Foundation and Glibc, in the few forms
// they use: the front is Embedded Swift, without either.

/// Bytes in memory (the readers' `Data` entry points).
struct Data {
    var bytes: [UInt8]

    init(buffer: UnsafeBufferPointer<UInt8>) { bytes = Array(buffer) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { bytes.withUnsafeBytes(body) }
}

/// A moment as seconds since 1970 (the reader's dates).
struct Date: Equatable {
    var timeIntervalSince1970: Double

    init(timeIntervalSince1970 seconds: Double) { timeIntervalSince1970 = seconds }
}

var errno: Int32 { front_errno() }
