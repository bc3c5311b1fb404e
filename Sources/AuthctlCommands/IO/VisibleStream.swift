import AuthCore

/// A body on its way to a person's terminal (`authctl request`), made visible-safe chunk by
/// chunk with the command layer's one rule (`Sanitize.visible`): every scalar a terminal acts
/// on or reorders by — ESC and so every OSC and CSI sequence, the C1 controls, DEL, the
/// bidirectional overrides — is written out as `\u{1B}`; line feeds, tabs and a carriage
/// return before a line feed stay. A UTF-8 character or a carriage return that a chunk ends
/// in waits for the next chunk; bytes that are not UTF-8 are shown as U+FFFD.
struct VisibleStream {
    /// The end of the last chunk that could not be decided yet: at most 3 bytes of an
    /// unfinished UTF-8 character, or a carriage return.
    private var pending: [UInt8] = []

    /// What `chunk` shows, after what the previous chunk left.
    mutating func filter(_ chunk: some Collection<UInt8>) -> [UInt8] {
        var bytes = pending
        bytes.append(contentsOf: chunk)
        let complete = Self.completeLength(bytes)
        pending = Array(bytes[complete...])
        bytes.removeSubrange(complete...)
        if pending.isEmpty, bytes.last == 0x0D {
            pending = [0x0D]
            bytes.removeLast()
        }
        return Self.shown(bytes)
    }

    /// What is left at the end of the body: an unfinished character (U+FFFD) or a carriage
    /// return that no line feed followed (escaped).
    mutating func finish() -> [UInt8] {
        defer { pending = [] }
        return Self.shown(pending)
    }

    /// How many of `bytes` end at a character boundary: all but an unfinished UTF-8 sequence
    /// at the end.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        while index >= 0, index >= bytes.count - 4 {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return index + length > bytes.count ? index : bytes.count
            }
            index -= 1
        }
        return bytes.count
    }

    static func shown(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return bytes }
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var shown = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let kept =
                !Sanitize.isUnsafeToShow(scalar) || scalar == "\n" || scalar == "\t"
                || (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n")
            if kept {
                shown.append(scalar)
            } else {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            }
        }
        return Array(String(shown).utf8)
    }
}
