import Testing
import Wire

/// The Protocol Buffers binary encoding: the examples of <https://protobuf.dev/programming-guides/encoding/>,
/// the length-prefixed framing, and every way a peer's bytes can be wrong.
@Suite("Protobuf wire format")
struct ProtobufTests {
    @Test("the encoding guide's examples: 150 in field 1, \"testing\" in field 2, an embedded message, -2")
    func guideExamples() throws {
        var message = ProtobufMessage()
        message.append(1, uint: 150)
        #expect(message.encoded() == [0x08, 0x96, 0x01])
        var text = ProtobufMessage()
        text.append(2, string: "testing")
        #expect(text.encoded() == [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
        var outer = ProtobufMessage()
        outer.append(3, message: message)
        #expect(outer.encoded() == [0x1A, 0x03, 0x08, 0x96, 0x01])
        var negative = ProtobufMessage()
        negative.append(1, int32: -2)
        #expect(negative.encoded() == [0x08, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])

        let decoded = try ProtobufMessage(decoding: outer.encoded())
        #expect(try decoded.message(3)?.uint(1) == 150)
        #expect(try ProtobufMessage(decoding: text.encoded()).string(2) == "testing")
        #expect(try ProtobufMessage(decoding: negative.encoded()).int32(1) == -2)
    }

    @Test("fixed32, fixed64 and bools read back; unknown fields are skipped; the last occurrence wins")
    func fieldsByNumber() throws {
        var message = ProtobufMessage()
        message.append(1, uint: 1)
        message.fields.append(ProtobufField(9, .fixed32(0xDEAD_BEEF)))
        message.fields.append(ProtobufField(10, .fixed64(0x0102_0304_0506_0708)))
        message.append(1, uint: 7)
        message.append(536_870_911, bool: true)
        let bytes = message.encoded()
        #expect(Array(bytes[2..<7]) == [0x4D, 0xEF, 0xBE, 0xAD, 0xDE], "fixed32 is little-endian")
        let decoded = try ProtobufMessage(decoding: bytes)
        #expect(decoded == message)
        #expect(decoded.uint(1) == 7)
        #expect(decoded.all(1) == [.varint(1), .varint(7)])
        #expect(decoded.bool(536_870_911) == true)
        #expect(decoded.uint(9) == nil, "another wire type")
        #expect(decoded.string(4) == nil && !decoded.has(4))
    }

    @Test("malformed: every way a field can break is refused with its reason, never read past")
    func malformed() {
        let cases: [([UInt8], WireError.Kind, String)] = [
            ([0x08], .malformed, "a varint cut short"),
            ([0x08, 0x80, 0x80], .malformed, "a varint cut short"),
            ([0x80], .malformed, "a field key cut short"),
            ([0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x02], .malformed, "past 64 bits"),
            ([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x00], .malformed, "past 64 bits"),
            ([0x00, 0x01], .malformed, "field number 0"),
            ([0x12, 0x05, 0x61], .malformed, "5 bytes announced, 1 left"),
            ([0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], .malformed, "announced"),
            ([0x09, 0x01, 0x02], .malformed, "a fixed64 cut short"),
            ([0x0D, 0x01], .malformed, "a fixed32 cut short"),
            ([0x0B], .unsupported, "groups"),
            ([0x0C], .unsupported, "groups"),
            ([0x0E], .malformed, "wire type 6"),
            ([0x0F], .malformed, "wire type 7"),
        ]
        for (bytes, kind, reason) in cases {
            #expect(throws: WireError.self, "\(bytes)") { try ProtobufMessage(decoding: bytes) }
            do {
                _ = try ProtobufMessage(decoding: bytes)
            } catch {
                #expect(error.kind == kind && error.reason.contains(reason), "\(bytes): \(error)")
            }
        }
    }

    @Test("truncated anywhere: every proper prefix of a message is refused or reads fewer fields")
    func everyPrefix() throws {
        var inner = ProtobufMessage()
        inner.append(1, string: "com.google.android.youtube.tv")
        var message = ProtobufMessage()
        message.append(1, uint: 622)
        message.append(10, message: inner)
        message.append(2, int32: -1)
        let bytes = message.encoded()
        for length in 0..<bytes.count {
            let decoded = try? ProtobufMessage(decoding: Array(bytes.prefix(length)))
            #expect((decoded?.fields.count ?? 0) < message.fields.count, "prefix \(length)")
        }
    }

    @Test("more than maxFields fields is refused before they are all kept")
    func tooManyFields() {
        let bytes = Array([[UInt8]](repeating: [0x08, 0x01], count: ProtobufMessage.maxFields + 1).joined())
        #expect(throws: WireError.tooLarge("protobuf", "more than \(ProtobufMessage.maxFields) fields in a message")) {
            try ProtobufMessage(decoding: bytes)
        }
    }

    @Test("length-prefixed framing: nothing until a whole message is in, byte at a time; the same for any split")
    func delimitedByteAtATime() throws {
        var first = ProtobufMessage()
        first.append(1, uint: 2)
        var second = ProtobufMessage()
        second.append(2, bytes: [UInt8](repeating: 7, count: 300))
        let stream = ProtobufDelimited.encode(first) + ProtobufDelimited.encode(second)
        #expect(Array(ProtobufDelimited.encode(second).prefix(2)) == [0xAF, 0x02], "303 bytes as a varint")
        var buffer: [UInt8] = []
        var messages: [ProtobufMessage] = []
        for byte in stream {
            buffer.append(byte)
            while let (message, used) = try ProtobufDelimited.decode(from: buffer[...]) {
                messages.append(try ProtobufMessage(decoding: message))
                buffer.removeFirst(used)
            }
        }
        #expect(messages == [first, second])
        #expect(buffer.isEmpty)
    }

    @Test("a length over the limit is refused at once, before its body is waited for")
    func delimitedTooLarge() throws {
        #expect(throws: WireError.self) { try ProtobufDelimited.decode(from: [0x81, 0x80, 0x04][...]) }
        #expect(try ProtobufDelimited.decode(from: [0x80, 0x80, 0x04][...]) == nil, "65,536 bytes: waits")
        #expect(throws: WireError.self) {
            try ProtobufDelimited.decode(from: [0x0A, 0x00][...], maxMessageBytes: 9)
        }
        #expect(throws: WireError.self) {
            try ProtobufDelimited.decode(from: ([UInt8](repeating: 0xFF, count: 10) + [0x01])[...])
        }
        #expect(try ProtobufDelimited.decode(from: [0x00][...])?.used == 1, "an empty message")
    }
}
