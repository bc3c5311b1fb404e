// The full program's reader of one keystore object, driven by the cached-token core's one
// table of the record's keys (`KeystoreRecordKeys`): which keys an object may hold, each one's
// JSON type, and which are required. A key added to the record is declared there once; the
// record's `read` (KeystoreRecord+Reading.swift) then takes its value by name.

/// One object's members as `KeystoreRecordReader.fields(_:nested:)` read them: every member of
/// a plain type (a string, a bool, an integer, a date, strings), by its index in the table.
struct KeystoreFields {
    enum Member {
        case string(String), bool(Bool), integer(Int), date(Date), strings([String])
    }

    let keys: [KeystoreRecordKeys.Key]
    fileprivate var members: [Member?]

    fileprivate init(_ keys: [KeystoreRecordKeys.Key]) {
        self.keys = keys
        members = Array(repeating: nil, count: keys.count)
    }

    private func member(_ name: String) -> Member? {
        KeystoreRecordKeys.index(of: name, in: keys).flatMap { members[$0] }
    }

    func string(_ name: String) -> String? { member(name).flatMap { if case .string(let value) = $0 { value } else { nil } } }
    func bool(_ name: String) -> Bool? { member(name).flatMap { if case .bool(let value) = $0 { value } else { nil } } }
    func integer(_ name: String) -> Int? { member(name).flatMap { if case .integer(let value) = $0 { value } else { nil } } }
    func date(_ name: String) -> Date? { member(name).flatMap { if case .date(let value) = $0 { value } else { nil } } }
    func strings(_ name: String) -> [String]? { member(name).flatMap { if case .strings(let value) = $0 { value } else { nil } } }
}

extension KeystoreRecordReader {
    /// An object of `keys`: each member read by the type the table gives it — a plain one into
    /// the fields, an object, objects or a map of objects by `nested` (given the key, it reads
    /// and keeps the value, or says false) —, no key outside the table, none twice, every
    /// required one there. Nil otherwise (then `JSONDecoder` decides).
    mutating func fields(
        _ keys: [KeystoreRecordKeys.Key], nested: (inout KeystoreRecordReader, String) -> Bool = { _, _ in false }
    ) -> KeystoreFields? {
        var fields = KeystoreFields(keys)
        var seen = SeenKeys()
        let ok = object { reader, key in
            guard let index = KeystoreRecordKeys.index(of: key, in: keys), seen.first(index) else { return false }
            let member: KeystoreFields.Member?
            switch keys[index].value {
            case .string: member = reader.string().map { .string($0) }
            case .bool: member = reader.bool().map { .bool($0) }
            case .integer: member = reader.integer().map { .integer($0) }
            case .date: member = reader.date().map { .date($0) }
            case .strings: member = reader.strings().map { .strings($0) }
            case .object, .objects, .objectMap: return nested(&reader, key)
            }
            guard let member else { return false }
            fields.members[index] = member
            return true
        }
        guard ok, KeystoreRecordKeys.hasRequired(keys, seen) else { return nil }
        return fields
    }

    /// `[ element, … ]`, each read by `element`.
    mutating func array<T>(_ element: (inout KeystoreRecordReader) -> T?) -> [T]? {
        guard take(Self.openBracket) else { return nil }
        var values: [T] = []
        if take(Self.closeBracket) { return values }
        while true {
            guard values.count < Self.maximumCount, let value = element(&self) else { return nil }
            values.append(value)
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? values : nil
        }
    }

    /// `{ name: element, … }`, each read by `element`, no name twice.
    mutating func map<T>(_ element: (inout KeystoreRecordReader) -> T?) -> [String: T]? {
        var values: [String: T] = [:]
        let ok = object { reader, key in
            guard values[key] == nil, let value = element(&reader) else { return false }
            values[key] = value
            return true
        }
        return ok ? values : nil
    }
}
