#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The cached-token core (Sources/CachedTokenCore) works on byte buffers and seconds; the full
// program reads it through these forms, in `Data` and `Date`.

extension KeystoreScan {
    static func currentUser(in data: Data) -> Found? {
        data.withUnsafeBytes { currentUser(inBytes: $0.bindMemory(to: UInt8.self)) }
    }

    /// The scan over the file open at `fd`, read `window` bytes at a time with `pread` (the
    /// descriptor's offset is left where it was); nil also when a read fails.
    static func currentUser(inFile fd: Int32, window: Int = 65536, uid: String? = nil) -> Found? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return currentUser(
            reading: { buffer, offset in
                while true {
                    guard let base = buffer.baseAddress else { return -1 }
                    let count = pread(fd, base, buffer.count, off_t(offset))
                    if count < 0, errno == EINTR { continue }
                    return count
                }
            }, size: Int(info.st_size), window: window, uid: uid)
    }
}

extension KeystoreRecordReader {
    /// `read` over the bytes of `data`; nil unless it reads one whole value and nothing follows.
    static func read<T>(_ data: Data, _ read: (inout KeystoreRecordReader) -> T?) -> T? {
        data.withUnsafeBytes { Self.read($0.bindMemory(to: UInt8.self), read) }
    }

    /// A date as `JSONEncoder`'s `.iso8601` writes it (`seconds()`).
    mutating func date() -> Date? { seconds().map(Date.init(timeIntervalSince1970:)) }
}

extension IDTokenExpiryReader {
    /// `expirySeconds(of:)` as a date.
    static func expiry(of token: String) -> Date?? {
        guard let known = expirySeconds(of: token) else { return nil }
        return .some(known.map(Date.init(timeIntervalSince1970:)))
    }
}

extension TokenOutputBytes {
    /// `text` as UTF-8, copied from the string's own storage (no generic `Data` initialiser).
    public static func data(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { Data(buffer: $0) }
    }

    public static func kubectlExecCredential(token: String, expiresAt: Date?) -> Data? {
        kubectlExecCredential(token: token, expiresAtSeconds: expiresAt?.timeIntervalSince1970).map { bytes in
            bytes.withUnsafeBufferPointer { Data(buffer: $0) }
        }
    }

    public static func rfc3339(_ date: Date) -> String? { rfc3339(seconds: date.timeIntervalSince1970) }
}
