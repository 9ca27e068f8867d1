import TestSupport
import Testing

@testable import Wire

/// The messages produced by pushing `frames` in order.
private func assemble(_ frames: [WebSocketFrame], maxMessageSize: Int = 1 << 20) throws(WireError) -> [WebSocketMessage]
{
    var assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageSize)
    var messages: [WebSocketMessage] = []
    for frame in frames {
        if let message = try assembler.push(frame) { messages.append(message) }
    }
    return messages
}

private func assemblyError(_ frames: [WebSocketFrame], maxMessageSize: Int = 1 << 20) -> WireError? {
    do {
        _ = try assemble(frames, maxMessageSize: maxMessageSize)
        return nil
    } catch {
        return error
    }
}

private func closeFrame(_ payload: [UInt8]) -> WebSocketFrame {
    WebSocketFrame(opcode: .close, payload: payload)
}

@Suite("WebSocket message assembler", .cpuBound)
struct WebSocketMessageAssemblerTests {
    @Test("single-frame text and binary messages come straight through")
    func singleFrames() throws {
        let messages = try assemble([.text("Hello"), .binary([1, 2, 3]), .text("")])
        #expect(messages == [.text("Hello"), .binary([1, 2, 3]), .text("")])
    }

    @Test("the RFC 6455 §5.7 fragmented \"Hel\" + \"lo\" becomes one text message")
    func fragmentedRFCExample() throws {
        let frames = try parseFrames(RFC6455Examples.fragmentHel + RFC6455Examples.fragmentLo, role: .client)
        #expect(try assemble(frames) == [.text("Hello")])
    }

    @Test("control frames interleaved with fragments are delivered at once (RFC 6455 §5.4)")
    func controlInterleaves() throws {
        var assembler = WebSocketMessageAssembler()
        #expect(try assembler.push(WebSocketFrame(fin: false, opcode: .binary, payload: [1])) == nil)
        #expect(assembler.isAssembling)
        #expect(try assembler.push(.ping([9])) == .ping([9]))
        #expect(try assembler.push(WebSocketFrame(fin: false, opcode: .continuation, payload: [2])) == nil)
        #expect(try assembler.push(.pong([8])) == .pong([8]))
        #expect(try assembler.push(WebSocketFrame(opcode: .continuation, payload: [3])) == .binary([1, 2, 3]))
        #expect(!assembler.isAssembling)
        #expect(try assembler.push(.text("next")) == .text("next"))
    }

    @Test("a multi-byte character split across fragments is reassembled")
    func utf8SplitAcrossFragments() throws {
        let bytes = Array("héllo ✓".utf8)
        let frames = [
            WebSocketFrame(fin: false, opcode: .text, payload: Array(bytes[0..<2])),
            WebSocketFrame(fin: false, opcode: .continuation, payload: Array(bytes[2..<8])),
            WebSocketFrame(opcode: .continuation, payload: Array(bytes[8...])),
        ]
        #expect(try assemble(frames) == [.text("héllo ✓")])
    }

    @Test("a continuation without a started message is malformed (RFC 6455 §5.4)")
    func orphanContinuation() {
        #expect(assemblyError([WebSocketFrame(opcode: .continuation, payload: [1])])?.kind == .malformed)
    }

    @Test(
        "a new data frame inside a fragmented message is malformed (RFC 6455 §5.4)",
        arguments: [
            WebSocketOpcode.text, .binary,
        ])
    func newDataFrameMidMessage(opcode: WebSocketOpcode) {
        let frames = [
            WebSocketFrame(fin: false, opcode: .text, payload: [0x61]),
            WebSocketFrame(opcode: opcode, payload: [0x62]),
        ]
        #expect(assemblyError(frames)?.kind == .malformed)
    }

    @Test(
        "invalid UTF-8 in a text message is malformed and maps to close code 1007 (RFC 6455 §8.1)",
        arguments: [
            [0xFF] as [UInt8], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x61, 0xF4, 0x90, 0x80, 0x80],
        ])
    func invalidUTF8(bytes: [UInt8]) {
        let error = assemblyError([WebSocketFrame(opcode: .text, payload: bytes)])
        #expect(error?.kind == .malformed)
        #expect(error.map(WebSocketCloseCode.forError) == WebSocketCloseCode.invalidPayloadData)
        // Binary messages carry any bytes.
        #expect(assemblyError([WebSocketFrame(opcode: .binary, payload: bytes)]) == nil)
    }

    @Test("a message over maxMessageSize is tooLarge, whether in one frame or assembled")
    func oversizeMessage() {
        #expect(assemblyError([.binary([UInt8](repeating: 0, count: 11))], maxMessageSize: 10)?.kind == .tooLarge)
        let fragments = [
            WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 6)),
            WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 0, count: 5)),
        ]
        let error = assemblyError(fragments, maxMessageSize: 10)
        #expect(error?.kind == .tooLarge)
        #expect(error.map(WebSocketCloseCode.forError) == WebSocketCloseCode.messageTooBig)
        #expect(assemblyError([.binary([UInt8](repeating: 0, count: 10))], maxMessageSize: 10) == nil)
    }

    @Test("control frames built by hand are still held to FIN and 125 bytes (RFC 6455 §5.5)")
    func handBuiltControlFrames() {
        #expect(assemblyError([WebSocketFrame(fin: false, opcode: .ping, payload: [])])?.kind == .malformed)
        #expect(assemblyError([WebSocketFrame(opcode: .pong, payload: [UInt8](repeating: 0, count: 126))]) != nil)
    }

    @Test("close frames: empty, code only, code with reason")
    func closeFrames() throws {
        #expect(try assemble([closeFrame([])]) == [.close(code: nil, reason: "")])
        #expect(try assemble([closeFrame([0x03, 0xE8])]) == [.close(code: 1000, reason: "")])
        #expect(try assemble([.close(code: 4001, reason: "ciao ✓")]) == [.close(code: 4001, reason: "ciao ✓")])
    }

    @Test("a one-byte close body is malformed (RFC 6455 §5.5.1)")
    func oneByteClose() {
        #expect(assemblyError([closeFrame([0x03])])?.kind == .malformed)
    }

    @Test(
        "close codes allowed on the wire are accepted (RFC 6455 §7.4)",
        arguments: [
            1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999,
        ] as [UInt16])
    func validCloseCodes(code: UInt16) throws {
        #expect(try assemble([.close(code: code)]) == [.close(code: code, reason: "")])
        #expect(WebSocketCloseCode.isValidOnWire(code))
    }

    @Test(
        "close codes not allowed on the wire are malformed (RFC 6455 §7.4)",
        arguments: [
            0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535,
        ] as [UInt16])
    func invalidCloseCodes(code: UInt16) {
        #expect(assemblyError([.close(code: code)])?.kind == .malformed)
        #expect(!WebSocketCloseCode.isValidOnWire(code))
    }

    @Test("a close reason that is not UTF-8 is malformed (RFC 6455 §5.5.1)")
    func invalidCloseReason() {
        #expect(assemblyError([closeFrame([0x03, 0xE8, 0xFF, 0xFE])])?.kind == .malformed)
    }

    @Test("other errors map to close code 1002")
    func protocolErrorCode() {
        #expect(WebSocketCloseCode.forError(.malformed("WebSocket", "reserved opcode 0x3")) == 1002)
    }
}
