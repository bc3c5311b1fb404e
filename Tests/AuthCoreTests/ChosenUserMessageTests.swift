import Foundation
import Testing

@testable import AuthCore

/// Issue 35: a use case given a chosen user (`uid` and why) names that user and the reason in
/// its errors, never "the current user"; without a choice it says what it always said.
@Suite("Errors name the user chosen and why")
struct ChosenUserMessageTests {
    static let ada = User(
        uid: "uid-ada-0000000000000000000", email: "ada@example.com", emailVerified: true, displayName: nil, photoURL: nil,
        createdAt: Date(timeIntervalSince1970: 0), lastSignInAt: Date(timeIntervalSince1970: 0),
        lastAuthAt: Date(timeIntervalSince1970: 0), lastProviderID: "oidc.fake",
        providerData: [
            LinkedIdentity(
                providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "ada-subject",
                profile: Profile(email: "ada@example.com", emailVerified: true), linkedAt: Date(timeIntervalSince1970: 0),
                tokens: nil)
        ])

    func missingIdentity(_ chosenBy: UserChoiceReason?) throws -> AuthError {
        let input = TokenRefresh.Input(providerID: try ProviderID(parsing: "oidc.corp"), uid: Self.ada.uid, chosenBy: chosenBy)
        do {
            _ = try TokenRefresh.select(input, of: Self.ada)
        } catch let error as AuthError {
            return error
        }
        Issue.record("select found an oidc.corp identity Ada does not have")
        return AuthError.internalError("none")
    }

    @Test(
        "has no identity: the chosen user and why, with the next step",
        arguments: [
            (
                UserChoiceReason.option,
                "ada@example.com (chosen by ‹user›) has no oidc.corp identity (linked: oidc.fake). Name another user"
            ),
            (.environment, "ada@example.com (chosen by AUTHCTL_USER) has no oidc.corp identity"),
            (
                .rule(index: 2, name: "work"),
                "ada@example.com (chosen by rule 2 (work)) has no oidc.corp identity (linked: oidc.fake). See why that rule holds here: ‹rulesExplain›"
            ),
            (.rule(index: 3, name: nil), "ada@example.com (chosen by rule 3) has no"),
        ])
    func chosen(reason: UserChoiceReason, words: String) throws {
        let error = try missingIdentity(reason)
        #expect(error.code == .noSuchProvider)
        #expect(error.message.description.contains(words), "\(error.message)")
        #expect(!error.message.description.contains("current user"))
    }

    @Test("without a choice: the current user, as before, with how to link it")
    func current() throws {
        let error = try missingIdentity(nil)
        #expect(
            error.message.description.hasPrefix(
                "the current user has no oidc.corp identity (linked: oidc.fake). Link it with: ‹link oidc.corp›"))
        // Signed out of a provider it has: named with its email, as before.
        let signedOut = TokenRefresh.Input(providerID: try ProviderID(parsing: "oidc.fake"))
        #expect(throws: AuthError.self) { try TokenRefresh.select(signedOut, of: Self.ada) }
        let rule = TokenRefresh.Input(
            providerID: try ProviderID(parsing: "oidc.fake"), uid: Self.ada.uid, chosenBy: .rule(index: 1, name: "w"))
        do {
            _ = try TokenRefresh.select(rule, of: Self.ada)
        } catch let error as AuthError {
            #expect(error.message.description.hasPrefix("ada@example.com (chosen by rule 1 (w)) is signed out of oidc.fake"))
        }
    }
}
