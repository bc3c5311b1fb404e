import AuthCore
import Foundation
import Testing

/// The helpers that replace what FoundationEssentials lacks (issue 14) give what full
/// Foundation gave: each is compared with the Foundation API it replaced (tests may use
/// all of Foundation), on the inputs where the two could part.
@Suite("FoundationEssentials replacements agree with Foundation")
struct EssentialsReplacementTests {
    static let texts = [
        "", " ", "  a b \t", "\u{00A0}x\u{2003}", "\n\r\u{85}x\u{2028}\u{2029}", "   \t\n", " e\u{301} ", "[::1]", "[]",
        "\u{FEFF}x\u{200B}", "\u{1680}y\u{3000}", "\u{0}z\u{7F}", "é", "\r\n", "a\u{0301}\u{0020}",
    ]

    @Test("trimming white space, new lines or brackets gives what trimmingCharacters(in:) gave", arguments: texts)
    func trimming(text: String) {
        #expect(text.trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimming(.whitespacesAndNewlines) == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimming(ScalarSet(charactersIn: "[]")) == text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }

    @Test("the predefined scalar sets hold the same Basic Multilingual Plane scalars as CharacterSet's")
    func sets() {
        let pairs: [(String, ScalarSet, CharacterSet)] = [
            ("whitespaces", .whitespaces, .whitespaces), ("whitespacesAndNewlines", .whitespacesAndNewlines, .whitespacesAndNewlines),
            ("controlCharacters", .controlCharacters, .controlCharacters),
        ]
        for (name, mine, foundation) in pairs {
            let differing = (UInt32(0)...0xFFFF).compactMap { Unicode.Scalar($0) }.filter { mine.contains($0) != foundation.contains($0) }
            #expect(differing.isEmpty, "\(name): \(differing.prefix(8).map { String($0.value, radix: 16) })")
        }
        // Letters and digits of ASCII (the only ones ProviderConfig's names allow) and a sample beyond.
        for scalar in (UInt32(0)...0x7F).compactMap({ Unicode.Scalar($0) }) + ["é", "ß", "Ж", "٣", "\u{301}", "中"] {
            #expect(ScalarSet.alphanumerics.contains(scalar) == CharacterSet.alphanumerics.contains(scalar), "\(scalar)")
        }
    }

    @Test(
        "replacingEvery gives what replacingOccurrences(of:with:) gave",
        arguments: [
            ("a+b+c", "+", " "), ("++", "+", ""), ("a-b-c", "-", ""), ("line\nbreak\r\n", "\n", " "), ("secret in secret", "secret", "…"),
            ("aaa", "aa", "b"), ("", "x", "y"), ("x", "", "y"),
        ])
    func replacing(text: String, target: String, replacement: String) {
        #expect(text.replacingEvery(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }

    @Test(
        "Path splits paths as NSString's path helpers did",
        arguments: [
            "/a/b", "/a/b/", "a/b", "/", "", "/a", "//a", "a//b", "/a/b//", "./x", "../x/y", "/home/me/.config/authctl/keystore.json",
        ])
    func paths(path: String) {
        #expect(Path.parent(of: path) == (path as NSString).deletingLastPathComponent)
        #expect(Path.lastComponent(of: path) == (path as NSString).lastPathComponent)
    }

    @Test("a bare file name has no parent (where NSString's deletingLastPathComponent traps on Linux)")
    func bareName() {
        #expect(Path.parent(of: "keystore.json") == "")
        #expect(Path.lastComponent(of: "keystore.json") == "keystore.json")
    }

    @Test("Hex.lowercase gives what String(format: \"%02x\") gave")
    func hex() {
        let bytes: [UInt8] = [0, 1, 0x0f, 0x10, 0x7f, 0x80, 0xab, 0xff]
        #expect(Hex.lowercase(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test("times of day and timestamps read as DateFormatter and ISO8601DateFormatter wrote them")
    func dates() {
        for seconds in [0, 1_700_000_000, 1_790_000_123, 4_102_444_799] as [TimeInterval] {
            let date = Date(timeIntervalSince1970: seconds)
            let clock = DateFormatter()
            clock.dateFormat = "HH:mm:ss"
            #expect(LocalClockTime.string(date) == clock.string(from: date))
            #expect(date.formatted(Date.ISO8601FormatStyle()) == ISO8601DateFormatter().string(from: date))
        }
    }
}
