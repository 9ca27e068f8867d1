import Net
import Wire

/// Length-prefixed messages off one connection (both Android TV ports frame this way), however
/// the bytes arrive.
struct AndroidTVFrames {
    let connection: TLSConnection
    private var buffer: [UInt8] = []

    init(_ connection: TLSConnection) { self.connection = connection }

    /// The next message's bytes; nil when the TV closed the connection.
    /// - Throws: `NetError` (the deadline, a refused certificate…) or `WireError` (a broken
    ///   length prefix, a message over 64 KiB: the stream cannot be read further).
    mutating func next(deadline: ContinuousClock.Instant?) async throws -> [UInt8]? {
        while true {
            if let (body, used) = try ProtobufDelimited.decode(from: buffer[...]) {
                let message = Array(body)
                buffer.removeFirst(used)
                return message
            }
            let bytes = try await connection.read(maxBytes: 16 * 1024, deadline: deadline)
            if bytes.isEmpty { return nil }
            buffer += bytes
        }
    }
}
