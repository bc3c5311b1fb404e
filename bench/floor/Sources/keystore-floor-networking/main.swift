import Foundation
import FoundationNetworking
import KeystoreFloor

// Linked, never used on this path: what authctl's HTTP transport would cost a command that
// makes no request if it linked FoundationNetworking (libcurl and its libraries).
if CommandLine.arguments.count > 2 { _ = URLSession(configuration: .ephemeral) }
printCurrentToken(keystore: CommandLine.arguments[1])
