import Net
import Wire

/// Reads length-prefixed protobuf messages off a stream (both Android TV ports frame this way),
/// however the bytes arrive.
struct AndroidTVFrameReader {
    let stream: any ByteStream
    private var buffer: [UInt8] = []

    init(_ stream: any ByteStream) { self.stream = stream }

    /// The next message; nil at the end of the stream.
    /// - Throws: what reading or decoding throws (a message over 64 KiB, a broken varint).
    mutating func next() async throws -> ProtobufMessage? {
        while true {
            if let (body, used) = try ProtobufDelimited.decode(from: buffer[...]) {
                let message = try ProtobufMessage(decoding: body)
                buffer.removeFirst(used)
                return message
            }
            let bytes = try await stream.read(maxBytes: 16 * 1024, deadline: nil)
            if bytes.isEmpty { return nil }
            buffer += bytes
        }
    }
}

extension ProtobufMessage {
    /// A message of one field holding `body`: how both protocols wrap each kind of message.
    static func wrapping(_ field: UInt32, _ body: ProtobufMessage = ProtobufMessage()) -> ProtobufMessage {
        var message = ProtobufMessage()
        message.append(field, message: body)
        return message
    }

    /// Built field by field, leaving out zeros, false and empty strings, as proto3 encoders do.
    static func proto3(_ fields: [(UInt32, ProtobufField.Value)]) -> ProtobufMessage {
        ProtobufMessage(
            fields.filter { $0.1 != .varint(0) && $0.1 != .bytes([]) }.map { ProtobufField($0.0, $0.1) })
    }

    /// The number of the first field that holds a message: which kind of message this is.
    var kind: UInt32? { fields.first { if case .bytes = $0.value { true } else { false } }?.number }
}
