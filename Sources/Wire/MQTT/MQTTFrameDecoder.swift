/// Splits a byte stream into MQTT packets (MQTT 3.1.1 §2.2).
///
/// Append what the socket delivered, then call `next()` (or `nextFrame()`) until it returns
/// `nil`. Checks run as early as the bytes allow: the fixed-header flags on the first byte, a
/// fifth length byte as soon as the fourth announces one, and the size limit as soon as the
/// length is known, before any of the body is buffered. After a throw the stream cannot be
/// resynced: close the connection (§4.8); further calls throw again.
public struct MQTTFrameDecoder: Sendable {
    /// The largest whole packet accepted (fixed header included).
    public let maxPacketSize: Int
    private var buffer = InputBuffer()
    /// Bytes of a skipped oversize PUBLISH still to come: dropped as they arrive, never buffered.
    private var discarding = 0

    /// - Parameter maxPacketSize: the largest whole packet to accept, header included.
    ///   Defaults to 1 MiB; the protocol allows 268,435,460 bytes (§2.2.3).
    public init(maxPacketSize: Int = 1 << 20) {
        self.maxPacketSize = maxPacketSize
    }

    /// Bytes received but not yet returned as packets.
    public var bufferedByteCount: Int { buffer.count }

    /// Whether the stream stopped inside a packet: part of one is buffered, or a skipped
    /// PUBLISH has bytes still to come.
    public var isInsidePacket: Bool { !buffer.isEmpty || discarding > 0 }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard discarding > 0 else {
            buffer.append(bytes)
            return
        }
        let chunk = Array(bytes)
        let dropped = min(discarding, chunk.count)
        discarding -= dropped
        buffer.append(chunk[dropped...])
    }

    /// The next complete packet, or `nil` when more bytes are needed.
    /// - Throws: `WireError.malformed` for a bad header or body, `.tooLarge` for a packet
    ///   larger than `maxPacketSize`.
    public mutating func next() throws(WireError) -> MQTTPacket? {
        guard let (frame, size) = try Self.decodeFirst(buffer.readable, maxPacketSize: maxPacketSize, skip: false),
            case .packet(let packet) = frame
        else {
            return nil
        }
        // The slice above is released by now, so consuming does not copy the storage.
        buffer.consume(size)
        return packet
    }

    /// The next complete packet, or an oversize PUBLISH that was skipped; `nil` when more
    /// bytes are needed.
    ///
    /// A PUBLISH over `maxPacketSize` is anyone's doing who may publish to a subscribed topic,
    /// not a broken broker: it is reported as soon as its topic and packet identifier are in
    /// (so the caller can acknowledge it as its QoS requires), and the rest of its body is
    /// dropped as it arrives. Any other packet over the limit still throws `.tooLarge`.
    /// - Throws: as `next()`.
    public mutating func nextFrame() throws(WireError) -> MQTTFrame? {
        guard let (frame, size) = try Self.decodeFirst(buffer.readable, maxPacketSize: maxPacketSize, skip: true)
        else {
            return nil
        }
        let consumed = min(size, buffer.count)
        buffer.consume(consumed)
        discarding = size - consumed
        return frame
    }

    /// Decodes the frame at the start of `bytes`, returning it with its size in bytes.
    private static func decodeFirst(
        _ bytes: ArraySlice<UInt8>, maxPacketSize: Int, skip: Bool
    ) throws(WireError) -> (MQTTFrame, Int)? {
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
            guard skip, type == .publish else {
                throw MQTTCodec.tooLarge("\(type.name) of \(size) bytes exceeds the \(maxPacketSize)-byte limit")
            }
            let body = bytes[index...].prefix(length)
            guard
                let skipped = try MQTTOversizePublish.decode(
                    flags: header & 0x0F, bodyStart: body, length: length, size: size)
            else { return nil }
            return (.oversizePublish(skipped), size)
        }
        guard bytes.count >= size else { return nil }
        let packet = try MQTTPacket.decode(header: header, body: bytes[index..<index + length])
        return (.packet(packet), size)
    }
}
