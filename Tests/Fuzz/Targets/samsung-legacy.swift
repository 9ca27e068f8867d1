// The pre-2016 Samsung remote protocol (TCP 55000): SamsungLegacyPacket.decode over a stream
// (what the driver reads from a TV and the simulator from a client), the reply meanings, and
// the client request payloads.
import Wire

/// Every packet of `chunks` fed as a socket delivers them, and the error that stopped it.
private func decodeStream(_ chunks: [ArraySlice<UInt8>]) -> ([SamsungLegacyPacket], WireError?) {
    var buffer = InputBuffer()
    var packets: [SamsungLegacyPacket] = []
    for chunk in chunks {
        buffer.append(chunk)
        do {
            while let (packet, used) = try SamsungLegacyPacket.decode(from: buffer.readable) {
                fuzzExpect(used > 0 && used <= buffer.count, "used \(used) of \(buffer.count)")
                buffer.consume(used)
                packets.append(packet)
            }
        } catch {
            return (packets, error)
        }
    }
    return (packets, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamsungLegacy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let (whole, wholeError) = decodeStream([input.bytes[...]])
    let (split, splitError) = decodeStream(input.chunks)
    fuzzExpect(whole == split && wholeError == splitError, "split-dependent decoding")
    for packet in whole {
        fuzzExpect(packet.app.count <= SamsungLegacyPacket.maxAppLength, "app over the limit")
        fuzzExpect(packet.payload.count <= SamsungLegacyPacket.maxPayloadLength, "payload over the limit")
        let again = (try? SamsungLegacyPacket.decode(from: packet.encoded()[...]))?.packet
        fuzzExpect(again == packet, "\(packet) re-decodes as \(String(describing: again))")
        _ = SamsungLegacyReply(payload: packet.payload)
        if let request = try? SamsungLegacyRequest(payload: packet.payload) {
            let reread = try? SamsungLegacyRequest(payload: request.payload)
            fuzzExpect(reread == request, "\(request) re-reads as \(String(describing: reread))")
        }
    }
    return 0
}
