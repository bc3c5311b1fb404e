/// What a uid may be, wherever one arrives — the keystore, an export being imported, a
/// Firebase answer: ASCII letters, digits, `-` and `_`, at most 128. A uid is a plain word on
/// a command line (`users use UID`) and in a shell's completion, never shell syntax or a
/// terminal escape. authctl mints 28 characters; Firebase's own uids may be shorter.
public enum UIDSyntax {
    public static let maximumLength = 128
    /// The uids of an export `users import` takes: authctl's own (at least 20 characters).
    public static let exportedLengths = 20...maximumLength

    public static func isUID(_ value: String, lengths: ClosedRange<Int> = 1...maximumLength) -> Bool {
        lengths.contains(value.utf8.count) && value.unicodeScalars.allSatisfy(isUIDCharacter)
    }

    private static func isUIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }
}
