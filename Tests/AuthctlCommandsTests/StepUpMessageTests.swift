import AuthCore
import Testing

@testable import AuthctlCommands

/// Issue 38, item 16: what `authctl request` says without a terminal when a 403
/// `insufficient_scope` names no scope (django-oauth-toolkit 3.4 sends none).
@Suite("request: a step-up the resource did not name")
struct StepUpMessageTests {
    func stepUp(lacking: [String]?) -> ResourceRequest.StepUp {
        var stepUp = ResourceRequest.StepUp(
            resource: "https://api.example.com/mcp", scopes: ["data.read"] + (lacking ?? []), error: "insufficient_scope")
        stepUp.scopeNamed = false
        stepUp.lacking = lacking
        return stepUp
    }

    @Test("it says that the resource named no scope, lists the scopes_supported the grant lacks, and suggests the command with them")
    func namesTheLackingScopes() {
        let error = RequestInvocation.stepUpRequired(stepUp(lacking: ["data.write"]))
        let text = MessageSpelling.words(error.message)
        #expect(error.code == .stepUpRequired)
        #expect(text.contains("did not name the scope"), "\(text)")
        #expect(!text.contains("asks for the scopes data.read"), "\(text)")
        #expect(text.contains("scopes_supported") && text.contains("data.write"), "\(text)")
        #expect(text.contains("authctl login https://api.example.com/mcp --scope data.read --scope data.write"), "\(text)")
    }

    @Test("when the metadata names nothing the grant lacks, it says so and suggests no command that cannot help")
    func nothingKnownToLack() {
        let text = MessageSpelling.words(RequestInvocation.stepUpRequired(stepUp(lacking: [])).message)
        #expect(text.contains("did not name the scope"), "\(text)")
        #expect(!text.contains("authctl login https://api.example.com/mcp --scope data.read\""), "\(text)")
        #expect(text.contains("operator"), "\(text)")
    }
}
