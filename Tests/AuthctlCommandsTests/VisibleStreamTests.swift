import AuthCore
import Foundation
import Testing

@testable import AuthctlCommands

/// The filter a body goes through on its way to a terminal (`authctl request`): chunk by
/// chunk, whatever the split, the same visible-safe text.
@Suite("VisibleStream: a body made visible-safe chunk by chunk")
struct VisibleStreamTests {
    static let body = Array(
        "a\u{1B}]52;c;cHduZWQ=\u{07}b\u{1B}]0;t\u{1B}\\\u{1B}[2J\u{9B}1m\u{202E}é€😀\tx\r\ny\rz\n\u{7F}\u{2066}end".utf8)

    func filtered(_ chunks: [[UInt8]]) -> String {
        var stream = VisibleStream()
        var out: [UInt8] = []
        for chunk in chunks { out += stream.filter(chunk) }
        out += stream.finish()
        return String(decoding: out, as: UTF8.self)
    }

    @Test("the whole body: escapes shown, never acted on; lines, tabs, CRLF and other characters kept")
    func whole() {
        let shown = filtered([Self.body])
        #expect(
            shown
                == "a\\u{1B}]52;c;cHduZWQ=\\u{7}b\\u{1B}]0;t\\u{1B}\\\\u{1B}[2J\\u{9B}1m\\u{202E}é€😀\tx\r\ny\\u{D}z\n\\u{7F}\\u{2066}end")
        #expect(!shown.unicodeScalars.contains { Sanitize.isUnsafeToShow($0) && !["\n", "\t", "\r"].contains($0) })
    }

    @Test("split in two at every byte, and byte by byte: the same text (a character, a C1 control or a CRLF split)")
    func everySplit() {
        let whole = filtered([Self.body])
        for cut in 0...Self.body.count {
            #expect(filtered([Array(Self.body[..<cut]), Array(Self.body[cut...])]) == whole, "split at \(cut)")
        }
        #expect(filtered(Self.body.map { [$0] }) == whole)
    }

    @Test("what is not UTF-8 is shown as U+FFFD, an unfinished character at the end too; a final lone CR is escaped")
    func invalidBytes() {
        #expect(filtered([[0x61, 0xFF, 0x62]]) == "a\u{FFFD}b")
        #expect(filtered([[0x61, 0xE2, 0x82]]) == "a\u{FFFD}")
        #expect(filtered([[0x61], [0x0D]]) == "a\\u{D}")
        #expect(filtered([[0xC2], [0x9B], [0x32, 0x4A]]) == "\\u{9B}2J")
    }
}
