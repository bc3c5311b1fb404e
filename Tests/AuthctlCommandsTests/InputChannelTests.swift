import Foundation
import Testing

@testable import AuthctlCommands

/// How commands read stdin (`InputChannel`): lines without their ending, nothing read past a
/// line, bounded reads.
@Suite("reading standard input")
struct InputChannelTests {
    @Test("readLine: \\n and \\r\\n endings are dropped, nothing after the line is consumed, nil at the end")
    func lines() throws {
        let input = ScriptedInput(Data("one\r\ntwo\nthree".utf8), isTerminal: false)
        #expect(try input.readLine(limit: 100) == "one")
        #expect(try input.readLine(limit: 100) == "two")
        #expect(try input.readLine(limit: 100) == "three")
        #expect(try input.readLine(limit: 100) == nil)
    }

    @Test("a line or an input over its limit throws InputTooLarge without reading the rest")
    func limits() throws {
        let line = ScriptedInput(Data("abcdef\nrest".utf8), isTerminal: false)
        #expect(throws: InputTooLarge.self) { try line.readLine(limit: 3) }
        let whole = ScriptedInput(Data(repeating: 65, count: 100_000), isTerminal: false)
        #expect(throws: InputTooLarge.self) { try whole.readToEnd(limit: 40_000) }
        #expect(try whole.readToEnd(limit: 100_000).count < 60_000, "stopped at the limit, not read to the end")
        #expect(try ScriptedInput(Data("abc".utf8), isTerminal: false).readToEnd(limit: 3) == Data("abc".utf8))
    }

    @Test("a read from a pipe with no data ends at once when the task is cancelled (Ctrl-C)")
    func cancellation() async throws {
        let input = PipeInput()
        let reading = Task { try input.readLine(limit: 10) }
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        input.closeWriting()
        input.closeReading()
    }
}
