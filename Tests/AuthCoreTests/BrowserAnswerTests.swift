import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

@Suite("The browser's answer, sent when the outcome is known")
struct BrowserAnswerTests {
    /// A connected pair of sockets: the listener's end and the browser's.
    func pair() -> (listener: Int32, browser: Int32) {
        var fds: [Int32] = [0, 0]
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        return (fds[0], fds[1])
    }

    func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        close(fd)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the first answer is the one the browser gets; later ones and the deadline's fallback do nothing")
    func answeredOnce() async {
        let (listener, browser) = pair()
        let clock = ManualClock()
        let answer = BrowserAnswer(fd: listener, fallback: .text(status: 200, "fallback"), clock: clock, after: 10)
        answer.answer(.text(status: 200, "first"))
        answer.answer(.text(status: 200, "second"))
        clock.advance(by: 10)
        #expect(answer.isAnswered)
        let page = readAll(browser)
        #expect(page.hasSuffix("first\n") && !page.contains("second") && !page.contains("fallback"))
    }

    @Test("a browser nobody answers gets the state machine's page at the deadline, never waits forever")
    func fallbackAtTheDeadline() async {
        let (listener, browser) = pair()
        let clock = ManualClock()
        let answer = BrowserAnswer(fd: listener, fallback: .text(status: 200, "fallback"), clock: clock)
        await clock.untilWaiting()
        clock.advance(by: 9.9)
        #expect(!answer.isAnswered, "not before the deadline of \(BrowserAnswer.deadline) s")
        clock.advance(by: 0.1)
        #expect(readAll(browser).hasSuffix("fallback\n"))
        #expect(answer.isAnswered)
    }

    @Test("authctl's message is escaped in the failure page")
    func failurePageEscapes() {
        let page = SignInPage.failed(because: "the provider said <b>\"no\"</b> & 'left'")
        #expect(page.contains("&lt;b&gt;&quot;no&quot;&lt;/b&gt; &amp; &#39;left&#39;"))
        #expect(!page.contains("<b>"))
        #expect(SignInPage.failed(because: nil) == SignInPage.failure)
        #expect(SignInPage.signedIn(to: "oidc.<x>").contains("oidc.&lt;x&gt;"))
    }
}
