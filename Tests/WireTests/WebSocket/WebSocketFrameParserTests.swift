import TestSupport
import Testing

@testable import Wire

/// Feeds `bytes` to a parser in chunks of `chunk` bytes, calling `next()` after each, and returns
/// every frame produced.
func parseFrames(
    _ bytes: [UInt8], role: WebSocketRole, chunk: Int = Int.max, maxFrameSize: Int = 1 << 20
) throws(WireError) -> [WebSocketFrame] {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
    var frames: [WebSocketFrame] = []
    var offset = 0
    repeat {
        let end = offset + min(chunk, bytes.count - offset)
        parser.append(bytes[offset..<end])
        offset = end
        while let frame = try parser.next() { frames.append(frame) }
    } while offset < bytes.count
    #expect(parser.bufferedByteCount == 0)
    return frames
}

/// The error a parser throws for `bytes`, or `nil`.
func parserError(_ bytes: [UInt8], role: WebSocketRole, maxFrameSize: Int = 1 << 20) -> WireError? {
    var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
    parser.append(bytes)
    do {
        while try parser.next() != nil {}
        return nil
    } catch {
        return error
    }
}

@Suite("WebSocket frame parser", .cpuBound)
struct WebSocketFrameParserTests {
    @Test("an empty buffer and every truncation of a frame return nil")
    func truncatedReturnsNil() throws {
        var parser = WebSocketFrameParser(role: .server)
        #expect(try parser.next() == nil)
        let bytes = WebSocketFrame.binary([UInt8](repeating: 9, count: 300)).encode(maskingKey: [1, 2, 3, 4])
        for length in 0..<bytes.count {
            var parser = WebSocketFrameParser(role: .server)
            parser.append(bytes.prefix(length))
            #expect(try parser.next() == nil, "prefix of \(length) bytes")
            #expect(parser.bufferedByteCount == length)
        }
    }

    @Test("a client parses the unmasked RFC 6455 §5.7 examples")
    func clientParsesRFCExamples() throws {
        let stream =
            RFC6455Examples.unmaskedHello + RFC6455Examples.fragmentHel + RFC6455Examples.unmaskedPing
            + RFC6455Examples.fragmentLo
        let frames = try parseFrames(stream, role: .client)
        #expect(
            frames == [
                WebSocketFrame(opcode: .text, payload: RFC6455Examples.hello),
                WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
                WebSocketFrame(opcode: .ping, payload: RFC6455Examples.hello),
                WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
            ])
    }

    @Test("a server parses and unmasks the masked RFC 6455 §5.7 examples")
    func serverParsesMaskedExamples() throws {
        let frames = try parseFrames(RFC6455Examples.maskedHello + RFC6455Examples.maskedPong, role: .server)
        #expect(
            frames == [
                WebSocketFrame(opcode: .text, payload: RFC6455Examples.hello),
                WebSocketFrame(opcode: .pong, payload: RFC6455Examples.hello),
            ])
    }

    @Test("256- and 65536-byte binary frames parse with their extended lengths")
    func extendedLengths() throws {
        let small = [0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 0x11, count: 256)
        let large = [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 0x22, count: 65536)
        let frames = try parseFrames(small + large, role: .client)
        #expect(frames.map(\.payload.count) == [256, 65536])
        let smallIntact = frames[0].payload.allSatisfy { $0 == 0x11 }
        let largeIntact = frames[1].payload.allSatisfy { $0 == 0x22 }
        #expect(smallIntact && largeIntact)
    }

    @Test("byte-at-a-time and split delivery give the same frames as one read", arguments: [1, 2, 3, 7, 13, 64, 1000])
    func splitDelivery(chunk: Int) throws {
        let key: [UInt8] = [0x5A, 0xA5, 0x0F, 0xF0]
        let originals = [
            WebSocketFrame.text("Hello"),
            WebSocketFrame.ping([1, 2, 3]),
            WebSocketFrame.binary((0..<300).map { UInt8(truncatingIfNeeded: $0) }),
            WebSocketFrame(fin: false, opcode: .text, payload: Array("frag".utf8)),
            WebSocketFrame(opcode: .continuation, payload: []),
            WebSocketFrame.close(code: 1000, reason: "done"),
        ]
        let stream = originals.flatMap { $0.encode(maskingKey: key) }
        #expect(try parseFrames(stream, role: .server, chunk: chunk) == originals)
        let unmasked = originals.flatMap { $0.encode(maskingKey: nil) }
        #expect(try parseFrames(unmasked, role: .client, chunk: chunk) == originals)
    }

    @Test(
        "frames of random sizes around the length boundaries round-trip",
        arguments: [
            0, 1, 124, 125, 126, 127, 65534, 65535, 65536, 65537, 100_000,
        ])
    func roundTripBoundaries(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<size).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let frame = WebSocketFrame.binary(payload)
        #expect(try parseFrames(frame.encode(maskingKey: key), role: .server) == [frame])
        #expect(try parseFrames(frame.encode(maskingKey: nil), role: .client) == [frame])
    }

    @Test("frames of random sizes within a few bytes of 125, 126, 65535 and 65536 round-trip")
    func roundTripRandomSizes() throws {
        var generator = SystemRandomNumberGenerator()
        for boundary in [125, 126, 65535, 65536] {
            for _ in 0..<4 {
                let size = boundary + Int.random(in: -3...3, using: &generator)
                let payload = [UInt8](repeating: UInt8.random(in: .min ... .max, using: &generator), count: size)
                let key = (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                let frame = WebSocketFrame(fin: Bool.random(using: &generator), opcode: .binary, payload: payload)
                let chunk = Int.random(in: 1...70_000, using: &generator)
                #expect(try parseFrames(frame.encode(maskingKey: key), role: .server, chunk: chunk) == [frame])
            }
        }
    }

    @Test("a client rejects a masked frame from the server (RFC 6455 §5.1)")
    func clientRejectsMasked() {
        #expect(parserError(RFC6455Examples.maskedHello, role: .client)?.kind == .malformed)
    }

    @Test("a server rejects an unmasked frame from the client (RFC 6455 §5.1)")
    func serverRejectsUnmasked() {
        #expect(parserError(RFC6455Examples.unmaskedHello, role: .server)?.kind == .malformed)
    }

    @Test("RSV bits without a negotiated extension are rejected (RFC 6455 §5.2)", arguments: [0x40, 0x20, 0x10, 0x70])
    func rsvRejected(bits: UInt8) {
        #expect(parserError([0x81 | bits, 0x00], role: .client)?.kind == .malformed)
    }

    @Test(
        "reserved opcodes are rejected (RFC 6455 §5.2)", arguments: [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func reservedOpcodesRejected(opcode: UInt8) {
        #expect(parserError([0x80 | opcode, 0x00], role: .client)?.kind == .malformed)
    }

    @Test("a fragmented control frame is rejected (RFC 6455 §5.5)", arguments: [0x08, 0x09, 0x0A])
    func fragmentedControlRejected(opcode: UInt8) {
        #expect(parserError([opcode, 0x00], role: .client)?.kind == .malformed)
    }

    @Test("a control frame over 125 bytes is rejected from its header alone (RFC 6455 §5.5)")
    func longControlRejected() {
        #expect(parserError([0x89, 0x7E, 0x00, 0x7E], role: .client)?.kind == .malformed)
        #expect(parserError([0x8A, 0x7E], role: .client)?.kind == .malformed)
        #expect(parserError([0x88, 0x7F], role: .client)?.kind == .malformed)
        let exactly125 = [0x89, 0x7D] + [UInt8](repeating: 0, count: 125)
        #expect(parserError(exactly125, role: .client) == nil)
    }

    @Test(
        "non-minimal length encodings are rejected (RFC 6455 §5.2)",
        arguments: [
            [0x82, 0x7E, 0x00, 0x00] as [UInt8],
            [0x82, 0x7E, 0x00, 0x7D],
            [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0x00, 0x7D],
            [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF],
        ])
    func nonMinimalLengthRejected(header: [UInt8]) {
        #expect(parserError(header, role: .client)?.kind == .malformed)
    }

    @Test("a 64-bit length with the most significant bit set is rejected (RFC 6455 §5.2)")
    func highBitLengthRejected() {
        let header: [UInt8] = [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]
        #expect(parserError(header, role: .client, maxFrameSize: .max)?.kind == .malformed)
    }

    @Test("a frame over maxFrameSize is tooLarge as soon as its header is read")
    func oversizeFrame() {
        #expect(parserError([0x82, 0x7E, 0x01, 0x00], role: .client, maxFrameSize: 255)?.kind == .tooLarge)
        #expect(parserError([0x82, 0x7F, 0, 0, 0, 0, 0, 0x10, 0, 1], role: .client)?.kind == .tooLarge)
        #expect(
            parserError([0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], role: .client)?.kind == .tooLarge)
        #expect(parserError([0x82, 0x7D], role: .client, maxFrameSize: 124)?.kind == .tooLarge)
        // Exactly at the limit is fine (and waits for its payload).
        #expect(parserError([0x82, 0x7E, 0x01, 0x00], role: .client, maxFrameSize: 256) == nil)
    }

    @Test("after an error the parser keeps failing instead of resynchronising")
    func errorIsSticky() throws {
        var parser = WebSocketFrameParser(role: .client)
        parser.append([0x83, 0x00])
        #expect(throws: WireError.self) { try parser.next() }
        parser.append(RFC6455Examples.unmaskedHello)
        #expect(throws: WireError.self) { try parser.next() }
    }

    @Test(
        "random bytes never trap: each input is a frame within the size limit, too few bytes yet, or refused as malformed or too large, and a refusal sticks"
    )
    func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            for role in [WebSocketRole.client, .server] {
                var parser = WebSocketFrameParser(role: role, maxFrameSize: 64)
                parser.append(bytes)
                do {
                    if let frame = try parser.next() {
                        #expect(frame.payload.count <= 64)
                        outcomes["frame", default: 0] += 1
                    } else {
                        outcomes["incomplete", default: 0] += 1
                    }
                } catch {
                    #expect(error.proto == "WebSocket")
                    outcomes[error.kind.rawValue, default: 0] += 1
                    let again: WireError?
                    do {
                        _ = try parser.next()
                        again = nil
                    } catch {
                        again = error
                    }
                    #expect(again != nil, "parsed after an error")
                }
            }
        }
        let other = outcomes.keys.filter { !["frame", "incomplete", "malformed", "tooLarge"].contains($0) }.sorted()
        #expect(other.isEmpty, "outcomes: \(outcomes)")
        #expect(outcomes["malformed", default: 0] > 0, "outcomes: \(outcomes)")
    }
}
