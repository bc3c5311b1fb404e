/// The quick look for rules in config.json's bytes (docs/identities.md), before the file is
/// read as JSON. The full program's token path (`FileConfigStorage.mayHoldRules`,
/// `ConfigRulesScan`) and the token front (scripts/build-front.sh compiles this file into it)
/// take the same decision from it. Standard library only.
public enum ConfigRulesPeek {
    /// Whether the bytes `"rules"` occur, or a backslash (a key may spell `rules` with
    /// escapes, `"\u0072ules"`): a file with neither holds no rules.
    public static func mayHoldRules(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle: StaticString = "\"rules\""
        let count = needle.utf8CodeUnitCount
        let start = needle.utf8Start
        guard bytes.count >= count else { return false }
        var index = 0
        while index <= bytes.count - count {
            if bytes[index] == UInt8(ascii: "\\") { return true }
            if bytes[index] == start[0] {
                var offset = 1
                while offset < count, bytes[index + offset] == start[offset] { offset += 1 }
                if offset == count { return true }
            }
            index += 1
        }
        return false
    }
}
