/// Encodes an `Encodable` value as a `JSONValue`, with the member names its `Codable`
/// conformance gives (the property names): so a file's keys are spelled once, by the type,
/// without Foundation (linked in statically it alone would cost megabytes of resident memory).
/// `nil` optionals are left out; integers outside `Int64` are refused.
public struct JSONValueEncoder {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Slot()
        try value.encode(to: SlotEncoder(slot: root, codingPath: []))
        return root.json
    }

    static func integer(_ value: some BinaryInteger) throws -> JSONValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "outside Int64"))
        }
        return .integer(exact)
    }
}

/// A value under construction: containers nest by reference, so a nested container's members
/// land in its parent's tree.
final class Slot {
    enum Content {
        case value(JSONValue)
        case object([String: Slot])
        case array([Slot])
    }

    var content = Content.value(.null)

    var json: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let members): .object(members.mapValues(\.json))
        case .array(let elements): .array(elements.map(\.json))
        }
    }

    /// The member `key`, made an object first if this is not one yet.
    func member(_ key: String) -> Slot {
        var members: [String: Slot] = [:]
        if case .object(let existing) = content { members = existing }
        let slot = Slot()
        members[key] = slot
        content = .object(members)
        return slot
    }

    /// A new last element, made an array first if this is not one yet.
    func append() -> Slot {
        var elements: [Slot] = []
        if case .array(let existing) = content { elements = existing }
        let slot = Slot()
        elements.append(slot)
        content = .array(elements)
        return slot
    }
}

struct SlotEncoder: Encoder {
    let slot: Slot
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([:]) }
        return KeyedEncodingContainer(KeyedSlot<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return UnkeyedSlot(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleSlot(slot: slot, codingPath: codingPath) }
}

struct KeyedSlot<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    var codingPath: [any CodingKey]

    private func put(_ value: JSONValue, _ key: Key) { slot.member(key.stringValue).content = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try JSONValueEncoder.integer(value), key) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try value.encode(to: SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.member("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedSlot: UnkeyedEncodingContainer, PutsValues {
    let slot: Slot
    var codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = slot.content { return elements.count }
        return 0
    }

    func put(_ value: JSONValue) { slot.append().content = .value(value) }

    mutating func encode(_ value: some Encodable) throws {
        try value.encode(to: SlotEncoder(slot: slot.append(), codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: slot.append(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.append(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.append(), codingPath: codingPath) }
}

struct SingleSlot: SingleValueEncodingContainer, PutsValues {
    let slot: Slot
    var codingPath: [any CodingKey]

    func put(_ value: JSONValue) { slot.content = .value(value) }

    mutating func encode(_ value: some Encodable) throws {
        try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath))
    }
}

/// The primitive overloads an unkeyed and a single-value container share: each puts one value.
protocol PutsValues {
    func put(_ value: JSONValue)
}

extension PutsValues {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.number(value)) }
    mutating func encode(_ value: Float) throws { put(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(try JSONValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(try JSONValueEncoder.integer(value)) }
}
