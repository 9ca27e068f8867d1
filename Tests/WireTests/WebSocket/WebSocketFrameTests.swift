import TestSupport
import Testing

@testable import Wire

/// The examples of RFC 6455 §5.7, byte for byte.
enum RFC6455Examples {
    static let unmaskedHello: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    static let fragmentHel: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C]
    static let fragmentLo: [UInt8] = [0x80, 0x02, 0x6C, 0x6F]
    static let unmaskedPing: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    static let maskedPong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    static let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    static let hello = Array("Hello".utf8)
}

@Suite("WebSocket frame encoding", .cpuBound)
struct WebSocketFrameTests {
    @Test("an unmasked single-frame text message matches RFC 6455 §5.7")
    func unmaskedTextGolden() {
        #expect(WebSocketFrame.text("Hello").encode(maskingKey: nil) == RFC6455Examples.unmaskedHello)
    }

    @Test("a masked single-frame text message matches RFC 6455 §5.7")
    func maskedTextGolden() {
        #expect(WebSocketFrame.text("Hello").encode(maskingKey: RFC6455Examples.key) == RFC6455Examples.maskedHello)
    }

    @Test("a fragmented text message matches RFC 6455 §5.7")
    func fragmentedGolden() {
        let first = WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8))
        let second = WebSocketFrame(fin: true, opcode: .continuation, payload: Array("lo".utf8))
        #expect(first.encode(maskingKey: nil) == RFC6455Examples.fragmentHel)
        #expect(second.encode(maskingKey: nil) == RFC6455Examples.fragmentLo)
    }

    @Test("an unmasked ping and a masked pong match RFC 6455 §5.7")
    func pingPongGolden() {
        #expect(WebSocketFrame.ping(RFC6455Examples.hello).encode(maskingKey: nil) == RFC6455Examples.unmaskedPing)
        #expect(
            WebSocketFrame.pong(RFC6455Examples.hello).encode(maskingKey: RFC6455Examples.key)
                == RFC6455Examples.maskedPong)
    }

    @Test("256- and 65536-byte binary frames use the 16- and 64-bit lengths of RFC 6455 §5.7")
    func extendedLengthGolden() {
        let small = WebSocketFrame.binary([UInt8](repeating: 0xAB, count: 256)).encode(maskingKey: nil)
        #expect(Array(small.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(small.count == 4 + 256)
        let large = WebSocketFrame.binary([UInt8](repeating: 0xCD, count: 65536)).encode(maskingKey: nil)
        #expect(Array(large.prefix(10)) == [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        #expect(large.count == 10 + 65536)
        let payloadIntact = large.dropFirst(10).allSatisfy { $0 == 0xCD }
        #expect(payloadIntact)
    }

    @Test(
        "the length encoding is minimal at each boundary",
        arguments: [
            (0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10),
        ])
    func minimalLengthEncoding(payloadCount: Int, headerCount: Int) {
        let bytes = WebSocketFrame.binary([UInt8](repeating: 1, count: payloadCount)).encode(maskingKey: nil)
        #expect(bytes.count == headerCount + payloadCount)
        let masked = WebSocketFrame.binary([UInt8](repeating: 1, count: payloadCount)).encode(maskingKey: [1, 2, 3, 4])
        #expect(masked.count == headerCount + 4 + payloadCount)
        #expect(masked[1] & 0x80 == 0x80)
    }

    @Test("masking matches the byte-wise definition of RFC 6455 §5.3 for every length up to 40")
    func maskingMatchesDefinition() {
        let key: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        for count in 0...40 {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let encoded = WebSocketFrame.binary(payload).encode(maskingKey: key)
            let masked = Array(encoded.suffix(count))
            let expected = payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
            #expect(masked == expected, "payload of \(count) bytes")
        }
    }

    @Test("RSV bits and FIN are written into the first byte")
    func firstByteBits() {
        let frame = WebSocketFrame(fin: false, rsv: 0b101, opcode: .binary, payload: [])
        #expect(frame.encode(maskingKey: nil) == [0x52, 0x00])
        #expect(WebSocketFrame(rsv: 0xFF, opcode: .text).rsv == 0x7)
    }

    @Test("encode(into:) appends to what is already in the buffer")
    func encodeIntoAppends() {
        var buffer: [UInt8] = [0xEE]
        WebSocketFrame.text("Hello").encode(maskingKey: nil, into: &buffer)
        #expect(buffer == [0xEE] + RFC6455Examples.unmaskedHello)
    }

    @Test("a close frame carries the code in network order and the UTF-8 reason")
    func closeBuilder() {
        #expect(WebSocketFrame.close(code: 1000, reason: "bye").payload == [0x03, 0xE8, 0x62, 0x79, 0x65])
        #expect(WebSocketFrame.close(code: nil).payload.isEmpty)
        #expect(WebSocketFrame.close(code: nil).opcode == .close)
    }

    @Test("close reasons and ping data are cut to fit the 125-byte control limit, on character boundaries")
    func controlBuildersTruncate() {
        let reason = String(repeating: "é", count: 100)  // 200 UTF-8 bytes
        let close = WebSocketFrame.close(code: 1001, reason: reason)
        #expect(close.payload.count == 2 + 122)
        #expect(String(validating: close.payload.dropFirst(2), as: UTF8.self) == String(repeating: "é", count: 61))
        #expect(WebSocketFrame.ping([UInt8](repeating: 7, count: 300)).payload.count == 125)
        #expect(WebSocketFrame.pong([UInt8](repeating: 7, count: 300)).payload.count == 125)
    }

    @Test("opcodes: defined values round-trip, reserved ones are refused, control is the high bit")
    func opcodes() {
        for raw in UInt8(0)...0x20 {
            let opcode = WebSocketOpcode(rawValue: raw)
            let defined: Set<UInt8> = [0x0, 0x1, 0x2, 0x8, 0x9, 0xA]
            #expect((opcode != nil) == defined.contains(raw), "opcode \(raw)")
            let roundTripped = opcode.map { $0.rawValue }
            #expect(roundTripped ?? raw == raw)
        }
        #expect(WebSocketOpcode.close.isControl && WebSocketOpcode.ping.isControl && WebSocketOpcode.pong.isControl)
        #expect(!WebSocketOpcode.text.isControl && !WebSocketOpcode.binary.isControl)
        #expect(!WebSocketOpcode.continuation.isControl)
        #expect(WebSocketOpcode.pong.description == "pong")
    }
}
