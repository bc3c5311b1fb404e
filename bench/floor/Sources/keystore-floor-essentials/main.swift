import KeystoreFloorEssentials

printCurrentToken(keystore: CommandLine.arguments[1])
