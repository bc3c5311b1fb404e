/// Percent-encoding over UTF-8 bytes (RFC 3986 §2.1): what authctl needs of Foundation's
/// `addingPercentEncoding`/`removingPercentEncoding`, with the same results (upper-case hex
/// on encoding; on decoding, nil for a malformed escape or bytes that are not UTF-8).
package enum PercentEncoding {
    /// Every UTF-8 byte of `string` for which `keep` is false, as `%XX`.
    package static func encode(_ string: some StringProtocol, keeping keep: (UInt8) -> Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Hex.upperDigit(byte >> 4))
                bytes.append(Hex.upperDigit(byte & 0x0F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `string` with every `%XX` replaced by its byte; nil when a `%` is not followed by two
    /// hex digits or the bytes are not UTF-8.
    package static func decode(_ string: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        var iterator = string.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
