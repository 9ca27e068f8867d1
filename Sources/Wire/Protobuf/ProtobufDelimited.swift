/// Messages on a stream, each preceded by its length as a varint (protobuf's
/// `writeDelimitedTo`; the Android TV Remote protocol v2 frames both its ports this way).
public enum ProtobufDelimited {
    /// The largest message accepted unless a caller says otherwise: the protocols we speak
    /// send messages of a few hundred bytes (an app icon would be the largest).
    public static let defaultMaxMessageBytes = 64 * 1024

    /// The first message of `bytes` and the bytes it took with its prefix; nil until all of
    /// it has arrived.
    /// - Throws: `tooLarge` as soon as the prefix announces more than `maxMessageBytes` (before
    ///   waiting for the body), `malformed` for a prefix that is no varint.
    public static func decode(
        from bytes: ArraySlice<UInt8>, maxMessageBytes: Int = defaultMaxMessageBytes
    ) throws(WireError) -> (message: ArraySlice<UInt8>, used: Int)? {
        guard let (length, prefix) = try ProtobufVarint.decode(bytes) else { return nil }
        guard length <= UInt64(maxMessageBytes) else {
            throw .tooLarge("protobuf", "a message of \(length) bytes (at most \(maxMessageBytes))")
        }
        guard bytes.count - prefix >= Int(length) else { return nil }
        let start = bytes.startIndex + prefix
        return (bytes[start..<start + Int(length)], prefix + Int(length))
    }

    /// `message` with its length prefix.
    public static func encode(_ message: ProtobufMessage) -> [UInt8] {
        let body = message.encoded()
        var bytes: [UInt8] = []
        ProtobufVarint.encode(UInt64(body.count), into: &bytes)
        return bytes + body
    }
}
