/// Decodes a `Decodable` value from a `JSONValue` by the member names its `Codable` conformance
/// gives, the counterpart of `JSONValueEncoder`.
///
/// Lenient about absence, for files written before a member existed: a missing member (or a
/// `null` one) reads as its type's empty value (`false`, `0`, `""`, an empty list or object),
/// and an optional one as `nil`. A member of the wrong type is a `DecodingError`.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }

    /// A decoding error as one line: the member's path and what was wrong ("inputs.1: expected
    /// a string, got number").
    public static func reason(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        default: return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}

/// One value to decode; `nil` or `.null` is an absent one.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue?
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var isAbsent: Bool { value == nil || value == .null }

    private func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(
            Any.self,
            .init(codingPath: codingPath, debugDescription: "expected \(expected), got \(value?.typeName ?? "nothing")")
        )
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if isAbsent { return KeyedDecodingContainer(KeyedValues<Key>(members: [:], codingPath: codingPath)) }
        guard let members = value?.objectValue else { throw mismatch("an object") }
        return KeyedDecodingContainer(KeyedValues<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if isAbsent { return UnkeyedValues(elements: [], codingPath: codingPath) }
        guard let elements = value?.arrayValue else { throw mismatch("an array") }
        return UnkeyedValues(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { isAbsent }

    /// A Bool, String or number, or its empty value when absent.
    func primitive<T>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type:
            if isAbsent { return false as! T }
            guard let flag = value?.boolValue else { throw mismatch("a boolean") }
            return flag as! T
        case is String.Type:
            if isAbsent { return "" as! T }
            guard let text = value?.stringValue else { throw mismatch("a string") }
            return text as! T
        case is Double.Type:
            if isAbsent { return 0.0 as! T }
            guard let number = value?.doubleValue else { throw mismatch("a number") }
            return number as! T
        case is Float.Type:
            return Float(try primitive(Double.self)) as! T
        default:
            return try integer(type)
        }
    }

    private func integer<T>(_ type: T.Type) throws -> T {
        guard let integerType = type as? any FixedWidthInteger.Type else { throw mismatch("\(type)") }
        if isAbsent { return integerType.init(0) as! T }
        guard let number = value?.intValue, let exact = integerType.init(exactly: number) else {
            throw mismatch("a whole number that fits \(type)")
        }
        return exact as! T
    }

    func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
    func decode(_ type: String.Type) throws -> String { try primitive(type) }
    func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
    func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
    func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    var codingPath: [any CodingKey]
    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) -> ValueDecoder {
        ValueDecoder(value: members[key.stringValue], codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder(for: key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).primitive(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).primitive(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).primitive(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).primitive(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).primitive(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).primitive(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).primitive(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).primitive(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).primitive(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).primitive(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).primitive(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).primitive(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).primitive(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).primitive(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: decoder(for: key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"], codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key) }
}

struct UnkeyedValues: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    var codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [Index(currentIndex)])
    }

    /// An element's place in the path of an error.
    struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { intValue.map(String.init) ?? "" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().primitive(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().primitive(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().primitive(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().primitive(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().primitive(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().primitive(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().primitive(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().primitive(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().primitive(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().primitive(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().primitive(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().primitive(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().primitive(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().primitive(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
