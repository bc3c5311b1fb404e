/// A JSON document as `Output.jsonDocument` writes it (`JSONEncoder`'s `.prettyPrinted`, keys in
/// the order given — the caller gives them sorted —, `.withoutEscapingSlashes`): two spaces per
/// level, `"key" : value`, an empty array as `[`, an empty line, `]`. Strings escape a quote and
/// a backslash only: the caller writes no control character (`CachedStatusAnswer.isPlain`).
struct PrettyJSON {
    var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost object or array has no member yet.
    private var empty = true

    /// `{` or `[`.
    mutating func open(_ bracket: StaticString) {
        append(bracket)
        depth += 1
        empty = true
    }

    /// `}` or `]`, on a line of its own (after an empty line when nothing was inside).
    mutating func close(_ bracket: StaticString) {
        depth -= 1
        bytes.append(0x0A)
        if empty { bytes.append(0x0A) }
        indent()
        append(bracket)
        empty = false
    }

    /// A new line for the next member or element, after a comma unless it is the first.
    mutating func element() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(0x0A)
        indent()
        empty = false
    }

    mutating func key(_ name: StaticString) {
        element()
        append("\"")
        append(name)
        append("\" : ")
    }

    mutating func member(_ name: StaticString, string value: String?) {
        key(name)
        if let value { string(value) } else { append("null") }
    }

    mutating func member(_ name: StaticString, bool value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// A date as `Output.timestamp` writes it, or null; false for one it does not write this way.
    mutating func member(_ name: StaticString, date seconds: Double?) -> Bool {
        guard let seconds else {
            member(name, string: nil)
            return true
        }
        guard let stamp = TokenOutputBytes.rfc3339(seconds: seconds) else { return false }
        member(name, string: stamp)
        return true
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func indent() {
        for _ in 0..<(depth * 2) { bytes.append(0x20) }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
