/// Finds the current user's record in a keystore file without decoding the others: a
/// byte-level pass that skips every value it does not need (strings, numbers, nested
/// objects and arrays) and allocates nothing for them. The hot path of `authctl token`
/// then decodes just that record.
///
/// It understands only what it must: a top-level object with `version` (an integer),
/// `currentUid` (a string without escapes) and `users` (an array of objects, each with a
/// `uid` string). Anything else — a syntax error, an escape in a key or in a uid, a value
/// of an unexpected type — makes it return nil, and the caller decodes the whole file with
/// `JSONDecoder`, which reports the problem. So it never accepts a file the full decoder
/// would refuse for the parts it reads, and never needs its own error messages.
///
/// It reads either bytes in memory or a file through a small window (64 KiB by default, by the
/// caller's `pread`), so that a keystore of a thousand users is never held in memory whole: only
/// the current user's record is read out and decoded (bench/README.md, peak memory).
///
/// It stops at the current user's record: authctl writes that record first (`KeystoreFile`)
/// and `version` last (sorted keys), which it then reads from the file's last bytes. So the
/// other users' records are not read at all — a damage among them is found by the next
/// command that reads the whole file (every write does) — and `token` costs the same with a
/// thousand users as with one. A file whose end is not `"version" : N }` is scanned whole.
public enum KeystoreScan {
    public struct Found: Equatable {
        public var version: Int
        public var currentUID: String?
        /// The byte range of the current user's object in `users`, nil when no user has that uid.
        public var user: Range<Int>?
        /// The byte range of the top-level `sealing` object (a sealed keystore), nil when absent.
        public var sealing: Range<Int>? = nil

        public init(version: Int, currentUID: String?, user: Range<Int>?, sealing: Range<Int>? = nil) {
            self.version = version
            self.currentUID = currentUID
            self.user = user
            self.sealing = sealing
        }
    }

    /// A file's bytes from an offset into a buffer (`pread`, retried on EINTR): the count read
    /// (0 at the end), or a negative number when the read failed.
    public typealias PositionalRead = (_ into: UnsafeMutableBufferPointer<UInt8>, _ offset: Int) -> Int

    public static func currentUser(inBytes bytes: UnsafeBufferPointer<UInt8>) -> Found? {
        var scanner = Scanner(source: .memory(bytes))
        return scanner.keystore()
    }

    /// The same scan over a file of `size` bytes, from its start to its end, read `window`
    /// bytes at a time with `read`. Nil also when a read fails.
    /// `uid`: the user whose record to find instead of the current user's (a rule's user,
    /// docs/identities.md); `Found.user` is then that record's range.
    /// `quoteSearch`: the index of the first quote in a buffer, nil for none — the front hands
    /// libc's `memchr` (which this core, free of libc, cannot call); else `firstQuote`'s SIMD loop.
    public static func currentUser(
        reading read: PositionalRead, size: Int, window: Int = 65536, uid: String? = nil, quoteSearch: QuoteSearch? = nil
    ) -> Found? {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(window, 1))
        defer { buffer.deallocate() }
        return withoutActuallyEscaping(read) { read in
            var scanner = Scanner(source: .file(read, buffer, size: size))
            scanner.wanted = uid
            scanner.quoteSearch = quoteSearch
            return scanner.keystore()
        }
    }

    /// The index of the first `"` in the bytes; nil when there is none.
    public typealias QuoteSearch = (UnsafeBufferPointer<UInt8>) -> Int?

    /// Where the bytes come from: all at hand, or a file read into a window.
    enum Source {
        case memory(UnsafeBufferPointer<UInt8>)
        case file(PositionalRead, UnsafeMutableBufferPointer<UInt8>, size: Int)
    }

    struct Scanner {
        let source: Source
        /// Set when the scan stopped at the current user's record (the rest is not read).
        var stoppedAt: Range<Int>?
        /// The bytes at hand, from offset `windowStart` of the whole.
        var window: UnsafeBufferPointer<UInt8>
        var windowStart = 0
        /// A read failed: the scan gives up.
        var failed = false
        /// The uid whose record is looked for; nil: the current user's.
        var wanted: String?
        /// A search for the first quote handed by the caller (`currentUser(reading:…)`).
        var quoteSearch: QuoteSearch?
        var position = 0

        init(source: Source) {
            self.source = source
            switch source {
            case .memory(let bytes): window = bytes
            case .file: window = UnsafeBufferPointer(start: nil, count: 0)
            }
        }

        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

        /// The bytes at hand from `position` on (reading the file there when they are not);
        /// empty at the end, or after a failed read.
        mutating func available() -> UnsafeBufferPointer<UInt8> {
            let offset = position - windowStart
            if offset >= 0, offset < window.count { return UnsafeBufferPointer(rebasing: window[offset...]) }
            guard case .file(let read, let buffer, _) = source, !failed else { return UnsafeBufferPointer(start: nil, count: 0) }
            let count = read(buffer, position)
            guard count >= 0, count <= buffer.count else {
                failed = true
                return UnsafeBufferPointer(start: nil, count: 0)
            }
            windowStart = position
            window = UnsafeBufferPointer(rebasing: buffer[..<count])
            return window
        }

        mutating func keystore() -> Found? {
            var version: Int?
            var currentUID: String?
            var users: Range<Int>?
            var sealing: Range<Int>?
            /// The current user's record, when `currentUid` came before `users` (as authctl
            /// writes it: sorted keys) and the array was searched in the same pass.
            var user: Range<Int>??
            /// The members read so far, a bit each: one given twice is the full decoder's to
            /// choose (it takes the first; this scan would take the last).
            var seen: UInt8 = 0
            guard
                objectMembers({ scanner, key in
                    let bit: UInt8 =
                        switch key {
                        case "version": 1
                        case "currentUid": 2
                        case "sealing": 4
                        case "users": 8
                        default: 0
                        }
                    guard seen & bit == 0 else {
                        scanner.failed = true
                        return false
                    }
                    seen |= bit
                    switch key {
                    case "version":
                        version = scanner.integer()
                        return version != nil
                    case "currentUid":
                        currentUID = scanner.plainString()
                        return currentUID != nil
                    case "sealing":
                        let start = scanner.position
                        guard scanner.peek() == Self.openBrace, scanner.skipValue() else { return false }
                        sealing = start..<scanner.position
                        return true
                    case "users":
                        let start = scanner.position
                        guard scanner.peek() == Self.openBracket else { return false }
                        if let target = scanner.wanted ?? currentUID {
                            guard let found = scanner.findUser(target, stoppingThere: true) else { return false }
                            if let found, scanner.stoppedAt != nil {
                                user = .some(found)
                                return false  // stop here: the rest of the file is not read
                            }
                            user = .some(found)
                        } else {
                            guard scanner.skipValue() else { return false }
                        }
                        users = start..<scanner.position
                        return true
                    default: return scanner.skipValue()
                    }
                })
            else {
                // Stopped at the current user's record: `version` is the file's last member.
                guard let found = stoppedAt, !failed, currentUID != nil || wanted != nil, let version = version ?? tailVersion(),
                    version == 1 || sealing != nil  // a sealed file's `sealing` comes before `users`
                else {
                    if stoppedAt != nil { return restarted() }
                    return nil
                }
                return Found(version: version, currentUID: currentUID, user: found, sealing: sealing)
            }
            skipWhitespace()
            guard peek() == nil, !failed, let version, let users else { return nil }
            guard let target = wanted ?? currentUID else { return Found(version: version, currentUID: nil, user: nil, sealing: sealing) }
            if let user { return Found(version: version, currentUID: currentUID, user: user, sealing: sealing) }
            position = users.lowerBound
            guard let found = findUser(target), !failed else { return nil }
            return Found(version: version, currentUID: currentUID, user: found, sealing: sealing)
        }

        /// The same scan from the start, reading the whole file (the end of the file was not
        /// what authctl writes, so `version` must be found where it is).
        mutating func restarted() -> Found? {
            var again = Scanner(source: source)
            again.stopAtUser = false
            again.wanted = wanted
            return again.keystore()
        }

        /// Whether `findUser` may stop at the record it looks for.
        var stopAtUser = true

        /// `version` read from the file's last bytes, `"version" : N }` (sorted keys put it
        /// last); nil when they are anything else.
        mutating func tailVersion() -> Int? {
            let tail: [UInt8]
            switch source {
            case .memory(let bytes):
                tail = Array(bytes.suffix(64))
            case .file(let read, _, let size):
                var bytes = [UInt8](repeating: 0, count: min(max(size, 0), 64))
                let count = bytes.withUnsafeMutableBufferPointer { read($0, size - $0.count) }
                guard count == bytes.count else { return nil }
                tail = bytes
            }
            var end = tail.count
            func skipSpace() { while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(tail[end - 1]) { end -= 1 } }
            skipSpace()
            guard end > 0, tail[end - 1] == Self.closeBrace else { return nil }
            end -= 1
            skipSpace()
            let digitsEnd = end
            while end > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(tail[end - 1]), digitsEnd - end < 9 { end -= 1 }
            guard end < digitsEnd, let version = Int(String(decoding: tail[end..<digitsEnd], as: UTF8.self)) else { return nil }
            skipSpace()
            guard end > 0, tail[end - 1] == Self.colon else { return nil }
            end -= 1
            skipSpace()
            let key = Array("\"version\"".utf8)
            guard end >= key.count, Array(tail[(end - key.count)..<end]) == key else { return nil }
            end -= key.count
            skipSpace()
            // The member before it ends with `,` (or the object begins): a top-level member.
            guard end > 0, tail[end - 1] == Self.comma || tail[end - 1] == Self.openBrace else { return nil }
            return version
        }

        /// In the `users` array: the range of the object whose `uid` is `uid`; `.some(nil)`
        /// when none is; nil when the array is not what it should be. The position ends
        /// after the array — or, with `stoppingThere` (and `stopAtUser`), right after the
        /// record found, which `stoppedAt` then holds.
        mutating func findUser(_ uid: String, stoppingThere: Bool = false) -> Range<Int>?? {
            guard next() == Self.openBracket else { return nil }
            skipWhitespace()
            if peek() == Self.closeBracket {
                position += 1
                return .some(nil)
            }
            var result: Range<Int>?
            while true {
                skipWhitespace()
                let start = position
                var found: String?
                guard peek() == Self.openBrace,
                    objectMembers({ scanner, key in
                        if key == "uid" {
                            found = scanner.plainString()
                            return found != nil
                        }
                        return scanner.skipValue()
                    })
                else { return nil }
                if found == uid, result == nil {
                    result = start..<position
                    if stoppingThere && stopAtUser {
                        stoppedAt = start..<position
                        return .some(result)
                    }
                }
                skipWhitespace()
                switch next() {
                case Self.comma: continue
                case Self.closeBracket: return .some(result)
                default: return nil
                }
            }
        }

        /// Calls `member` for each key of the object at the position, which must read the value.
        mutating func objectMembers(_ member: (inout Scanner, String) -> Bool) -> Bool {
            skipWhitespace()
            guard next() == Self.openBrace else { return false }
            skipWhitespace()
            if peek() == Self.closeBrace {
                position += 1
                return true
            }
            while true {
                skipWhitespace()
                guard let key = plainString() else { return false }
                skipWhitespace()
                guard next() == Self.colon else { return false }
                skipWhitespace()
                guard member(&self, key) else { return false }
                skipWhitespace()
                switch next() {
                case Self.comma: continue
                case Self.closeBrace: return true
                default: return false
                }
            }
        }

        /// A string without escapes (keys, uids); nil for anything else.
        mutating func plainString() -> String? {
            guard next() == Self.quote else { return nil }
            // Most often the whole string is at hand: made straight from the window.
            let bytes = available()
            if let end = bytes.firstIndex(where: { $0 == Self.quote || $0 == Self.backslash || $0 < 0x20 }) {
                guard bytes[end] == Self.quote else { return nil }
                position += end + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            }
            // It goes on in the next window: byte by byte.
            var text = Array(bytes)
            position += bytes.count
            while let byte = peek() {
                if byte == Self.backslash || byte < 0x20 { return nil }
                position += 1
                if byte == Self.quote { return String(decoding: text, as: UTF8.self) }
                text.append(byte)
            }
            return nil
        }

        mutating func integer() -> Int? {
            var digits: [UInt8] = []
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits.count < 10 {
                digits.append(byte)
                position += 1
            }
            guard !digits.isEmpty, digits.count < 10 else { return nil }
            return Int(String(decoding: digits, as: UTF8.self))
        }

        @inline(__always)
        mutating func peek() -> UInt8? {
            let offset = position - windowStart
            if offset >= 0, offset < window.count { return window[offset] }
            let bytes = available()
            return bytes.isEmpty ? nil : bytes[0]
        }

        mutating func next() -> UInt8? {
            defer { position += 1 }
            return peek()
        }
    }
}
