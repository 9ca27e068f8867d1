// The Protocol Buffers wire format: ProtobufDelimited framing over a stream (as a socket
// delivers it), each message read flat by ProtobufMessage, and nested messages by `message`.
import Wire

/// Every framed message of `chunks`, read as a socket delivers them, and the error that stopped it.
private func decodeStream(_ chunks: [ArraySlice<UInt8>], limit: Int) -> ([[UInt8]], WireError?) {
    var buffer = InputBuffer()
    var messages: [[UInt8]] = []
    for chunk in chunks {
        buffer.append(chunk)
        do {
            while let (message, used) = try ProtobufDelimited.decode(from: buffer.readable, maxMessageBytes: limit) {
                fuzzExpect(used > message.count && used <= buffer.count, "used \(used) of \(buffer.count)")
                fuzzExpect(message.count <= limit, "a message of \(message.count) bytes")
                messages.append(Array(message))
                buffer.consume(used)
            }
        } catch {
            return (messages, error)
        }
    }
    return (messages, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtobuf(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limit = [ProtobufDelimited.defaultMaxMessageBytes, 16][input.selector(2)]
    let (whole, wholeError) = decodeStream([input.bytes[...]], limit: limit)
    let (split, splitError) = decodeStream(input.chunks, limit: limit)
    fuzzExpect(whole == split && wholeError == splitError, "split-dependent framing")
    for bytes in whole + [input.bytes] {
        guard let message = try? ProtobufMessage(decoding: bytes) else { continue }
        fuzzExpect(message.fields.count <= ProtobufMessage.maxFields, "\(message.fields.count) fields")
        // Re-encoded, it reads the same (a varint may have come in a longer form than ours).
        let again = try? ProtobufMessage(decoding: message.encoded())
        fuzzExpect(again == message, "\(message) re-reads as \(String(describing: again))")
        for field in message.fields {
            _ = try? message.message(field.number)
            _ = message.string(field.number)
            _ = message.int32(field.number)
        }
    }
    return 0
}
