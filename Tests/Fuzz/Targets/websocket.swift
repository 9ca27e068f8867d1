// WebSocket (RFC 6455): WebSocketFrameParser in both roles, then WebSocketMessageAssembler.
import Wire

private struct Outcome: Equatable {
    var frames: [WebSocketFrame] = []
    var error: WireError?
}

/// Small limits, so the size checks are reached by inputs of a fuzzer's size.
private let maxFrameSize = 1024
private let maxMessageSize = 2048

private func parse(_ chunks: [ArraySlice<UInt8>], role: WebSocketRole) -> Outcome {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
    var outcome = Outcome()
    do throws(WireError) {
        for chunk in chunks {
            parser.append(chunk)
            while let frame = try parser.next() { outcome.frames.append(frame) }
        }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    // A server reads masked frames, a client unmasked ones: both parsers face the network.
    let role: WebSocketRole = input.selector(2) == 0 ? .client : .server
    let whole = parse([input.bytes[...]], role: role)
    let split = parse(input.chunks, role: role)
    fuzzExpect(whole == split, "whole \(whole) but split \(split)")

    var assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageSize)
    for frame in whole.frames {
        // Re-encoded as the peer would send it, each frame parses back the same.
        let bytes = frame.encode(maskingKey: role == .server ? [0x12, 0x34, 0x56, 0x78] : nil)
        let again = parse([bytes[...]], role: role)
        fuzzExpect(again == Outcome(frames: [frame]), "\(frame) re-parses as \(again)")
        // The assembler must throw or answer, never trap; after a throw the connection is failed.
        do throws(WireError) {
            _ = try assembler.push(frame)
        } catch {
            break
        }
    }
    return 0
}
