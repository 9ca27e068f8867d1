/// Splits a byte stream into MQTT packets (MQTT 3.1.1 §2.2).
///
/// Append what the socket delivered, then call `next()` until it returns `nil`. Checks run
/// as early as the bytes allow: the fixed-header flags on the first byte, a fifth length
/// byte as soon as the fourth announces one, and the size limit as soon as the length is
/// known, before any of the body is buffered. After a throw the stream cannot be resynced:
/// close the connection (§4.8); further calls throw again.
public struct MQTTFrameDecoder: Sendable {
    /// The largest whole packet accepted (fixed header included).
    public let maxPacketSize: Int
    private var buffer = InputBuffer()

    /// - Parameter maxPacketSize: the largest whole packet to accept, header included.
    ///   Defaults to 1 MiB; the protocol allows 268,435,460 bytes (§2.2.3).
    public init(maxPacketSize: Int = 1 << 20) {
        self.maxPacketSize = maxPacketSize
    }

    /// Bytes received but not yet returned as packets.
    public var bufferedByteCount: Int { buffer.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(bytes)
    }

    /// The next complete packet, or `nil` when more bytes are needed.
    /// - Throws: `WireError.malformed` for a bad header or body, `.tooLarge` for a packet
    ///   larger than `maxPacketSize`.
    public mutating func next() throws(WireError) -> MQTTPacket? {
        guard let (packet, size) = try Self.decodeFirst(buffer.readable, maxPacketSize: maxPacketSize) else {
            return nil
        }
        // The slice above is released by now, so consuming does not copy the storage.
        buffer.consume(size)
        return packet
    }

    /// Decodes the packet at the start of `bytes`, returning it with its size in bytes.
    private static func decodeFirst(
        _ bytes: ArraySlice<UInt8>, maxPacketSize: Int
    ) throws(WireError) -> (MQTTPacket, Int)? {
        guard let header = bytes.first else { return nil }
        let type = try MQTTPacket.checkFixedHeader(header)

        // Remaining length: 1…4 bytes, 7 bits each, least significant first (§2.2.3).
        var length = 0
        var lengthBytes = 0
        var index = bytes.startIndex + 1
        while true {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            length |= Int(byte & 0x7F) << (7 * lengthBytes)
            lengthBytes += 1
            index += 1
            if byte & 0x80 == 0 { break }
            guard lengthBytes < 4 else {
                throw MQTTCodec.malformed("remaining length uses more than 4 bytes (§2.2.3)")
            }
        }
        try MQTTPacket.checkRemainingLength(length, of: type)
        let size = 1 + lengthBytes + length
        guard size <= maxPacketSize else {
            throw MQTTCodec.tooLarge("\(type.name) of \(size) bytes exceeds the \(maxPacketSize)-byte limit")
        }
        guard bytes.count >= size else { return nil }
        let packet = try MQTTPacket.decode(header: header, body: bytes[index..<index + length])
        return (packet, size)
    }
}
