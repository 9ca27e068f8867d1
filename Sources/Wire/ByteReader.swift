/// A cursor over bytes, for decoding a message that is already complete in memory.
///
/// Every read returns `nil` when too few bytes remain; the caller decides whether that
/// means "wait for more" (framing) or "malformed" (inside a frame whose length is known).
/// Multi-byte integers are big-endian (network order), as in MQTT, WebSocket and TLS.
public struct ByteReader {
    public let bytes: ArraySlice<UInt8>
    public private(set) var index: Int

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Bytes not yet read.
    public var remaining: Int { bytes.endIndex - index }
    public var isAtEnd: Bool { index >= bytes.endIndex }

    public func peekUInt8() -> UInt8? {
        index < bytes.endIndex ? bytes[index] : nil
    }

    public mutating func readUInt8() -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { index += 2 }
        return UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    public mutating func readUInt32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 8 | UInt32(bytes[index + offset]) }
        index += 4
        return value
    }

    public mutating func readUInt64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value = value << 8 | UInt64(bytes[index + offset]) }
        index += 8
        return value
    }

    /// The next `count` bytes, or `nil` when fewer remain.
    public mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { index += count }
        return bytes[index..<index + count]
    }

    /// Everything not yet read.
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }
}
