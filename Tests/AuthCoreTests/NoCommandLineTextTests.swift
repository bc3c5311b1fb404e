import Foundation
import Testing

/// AuthCore speaks in values (issue 13): a command to run or an option to give is a
/// `Message.Verb` or `Message.Input`, which the command line spells. This test reads the
/// library's sources and fails on a string literal that spells one itself.
@Suite("AuthCore holds no command-line text")
struct NoCommandLineTextTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AuthCore")

    @Test("no string literal in Sources/AuthCore names an authctl command or a --flag")
    func noCommandLineText() throws {
        let commands =
            /authctl \(?(login|link|reauth|unlink|signout|status|token|exec|users|providers|git-credential|backend (use|show)|keystore (status|seal|unseal|rekey|new-key))\b/
        let flag = /(^|[\s('"])--[a-z][a-z-]+/
        // A literal that is a flag alone, wherever it stands: inside an interpolation the
        // quotes' parity below no longer tells literals from code (`"--dry-run"` hid so).
        let wholeFlag = /"--[a-z][a-z-]+"/
        var found: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
        #expect(files.count > 50, "the sources are at \(Self.sources.path)")
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                // The string literals of the line: every other piece between quotes (an
                // escaped quote inside a literal is not one of them).
                let unescaped = code.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\\"", with: "'")
                let literals = unescaped.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                for (_, literal) in literals where literal.contains(commands) || literal.contains(flag) {
                    found.append("\(file):\(number + 1): \(literal)")
                }
                if let match = unescaped.firstMatch(of: wholeFlag) { found.append("\(file):\(number + 1): \(match.output)") }
            }
        }
        #expect(found.isEmpty, "spell these as Message values: \(found.joined(separator: "\n"))")
    }
}
