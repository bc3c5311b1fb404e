import AuthCore
import Foundation
import Testing

@Suite("Clock")
struct ClockTests {
    @Test(
        "a sleep for a non-finite or absurd number of seconds never traps: it waits until cancelled",
        arguments: [
            Double.infinity, 1e300, Double.greatestFiniteMagnitude,
        ])
    func absurdSleep(seconds: Double) async {
        let sleeper = Task { try await SystemClock().sleep(for: seconds) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("a sleep for NaN or a negative time returns at once")
    func nothingToWait() async throws {
        try await SystemClock().sleep(for: .nan)
        try await SystemClock().sleep(for: -5)
    }
}
