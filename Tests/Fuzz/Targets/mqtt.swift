// MQTT 3.1.1: MQTTFrameDecoder and MQTTPacket.decode, both directions of packets.
import Wire

/// What a decoder made of a whole stream: its packets, then the error that stopped it, if any.
private struct Outcome: Equatable {
    var packets: [MQTTPacket] = []
    var error: WireError?
}

/// A small limit, so the size check is reached by inputs of a fuzzer's size.
private let maxPacketSize = 512

private func decode(_ chunks: [ArraySlice<UInt8>]) -> Outcome {
    var decoder = MQTTFrameDecoder(maxPacketSize: maxPacketSize)
    var outcome = Outcome()
    do throws(WireError) {
        for chunk in chunks {
            decoder.append(chunk)
            while let packet = try decoder.next() { outcome.packets.append(packet) }
        }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMQTT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let whole = decode([input.bytes[...]])
    // The split must not matter: a packet may arrive a byte at a time.
    let split = decode(input.chunks)
    fuzzExpect(whole == split, "whole \(whole) but split \(split)")
    // The encoder is as strict as the decoder: every decoded packet re-encodes, and the bytes
    // decode to the same packet.
    for packet in whole.packets {
        let bytes: [UInt8]
        do throws(WireError) {
            bytes = try packet.encoded()
        } catch {
            fuzzExpect(false, "decoded \(packet) does not re-encode: \(error)")
            continue
        }
        let again = decode([bytes[...]])
        fuzzExpect(again == Outcome(packets: [packet]), "\(packet) re-decodes as \(again)")
    }
    return 0
}
