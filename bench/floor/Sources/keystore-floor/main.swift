import KeystoreFloor

printCurrentToken(keystore: CommandLine.arguments[1])
