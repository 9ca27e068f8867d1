import TestSupport
import Testing
import Wire

@Suite("Samsung legacy remote packets (TCP 55000)", .cpuBound)
struct SamsungLegacyPacketTests {
    static let replies: [(String, SamsungLegacyReply)] = [
        ("legacy_reply_granted.bin", .granted), ("legacy_reply_denied.bin", .denied),
        ("legacy_reply_waiting.bin", .waiting), ("legacy_reply_timeout.bin", .timedOut),
        ("legacy_reply_key.bin", .keyAccepted),
    ]

    @Test("the published authentication packet is what we send for the same client")
    func authenticationGolden() throws {
        let fixture = try TestFixtures.bytes("samsung/legacy_auth_request.bin")
        // The client address the capture carries, in its own base64 (a parse only: nothing is sent).
        let ip = String(decoding: try Base64.decode("MTkyLjE2OC4xLjYy"), as: UTF8.self)
        let ours = SamsungLegacyRequest.authenticate(ip: ip, id: "LoungRemote", name: "ChrisNetlinx")
        #expect(ours.packet.encoded() == fixture)
        let decoded = try #require(try SamsungLegacyPacket.decode(from: fixture[...]))
        #expect(decoded.used == fixture.count)
        #expect(decoded.packet.app == Array("iphone.iapp.samsung".utf8))
        #expect(try SamsungLegacyRequest(payload: decoded.packet.payload) == ours)
    }

    @Test("a key packet: three zero bytes, then the base64 key code")
    func keyGolden() throws {
        let fixture = try TestFixtures.bytes("samsung/legacy_key_menu_request.bin")
        #expect(SamsungLegacyRequest.key("KEY_MENU").packet.encoded() == fixture)
        #expect(Array(fixture[22..<24]) == [0x11, 0x00], "payload size 0x0011, little-endian")
    }

    @Test("each published TV reply decodes to its meaning and re-encodes byte for byte")
    func replyGolden() throws {
        for (name, meaning) in Self.replies {
            let bytes = try TestFixtures.bytes("samsung/\(name)")
            let decoded = try #require(try SamsungLegacyPacket.decode(from: bytes[...]), "\(name)")
            let reply = SamsungLegacyReply(payload: decoded.packet.payload)
            #expect(reply == meaning, "\(name)")
            #expect(decoded.packet.encoded() == bytes, "\(name)")
        }
        #expect(SamsungLegacyReply(payload: [0x0A, 0x00]) == .waiting, "only the leading byte counts")
        #expect(SamsungLegacyReply(payload: [0x65]) == .timedOut)
        #expect(SamsungLegacyReply(payload: [0x01, 0x02]) == .other([0x01, 0x02]))
        #expect(SamsungLegacyReply(payload: []) == .other([]))
    }

    @Test("every truncation asks for more bytes; byte-at-a-time delivery gives the same packets")
    func truncatedAndByteAtATime() throws {
        var stream: [UInt8] = []
        for (name, _) in Self.replies { stream += try TestFixtures.bytes("samsung/\(name)") }
        let whole = try Self.decodeAll(stream, chunk: stream.count)
        #expect(whole.count == Self.replies.count)
        for chunk in [1, 2, 3, 7] {
            let pieces = try Self.decodeAll(stream, chunk: chunk)
            #expect(pieces == whole, "chunk \(chunk)")
        }
        let one = try TestFixtures.bytes("samsung/legacy_reply_waiting.bin")
        for cut in 0..<one.count {
            let partial = try SamsungLegacyPacket.decode(from: one[..<cut])
            #expect(partial == nil, "\(cut) bytes")
        }
    }

    @Test("oversized lengths are refused as soon as they are read, before their bytes arrive")
    func oversized() {
        let bigApp: [UInt8] = [0x00, 0xFF, 0xFF]
        #expect(throws: WireError.self) { try SamsungLegacyPacket.decode(from: bigApp[...]) }
        let bigPayload: [UInt8] = [0x00, 0x00, 0x00, 0x01, 0x04]  // 1025 bytes announced
        #expect(throws: WireError.self) { try SamsungLegacyPacket.decode(from: bigPayload[...]) }
        let atLimit: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x04]  // exactly 1024: wait for them
        let pending = try? SamsungLegacyPacket.decode(from: atLimit[...])
        #expect(pending == nil)
    }

    @Test("malformed client payloads are refused, never trapped on")
    func malformedRequests() {
        let cases: [[UInt8]] = [
            [],
            [0x64],
            [0x64, 0x00, 0x05, 0x00, 0x41],  // a field longer than the payload
            [0x64, 0x00, 0x04, 0x00] + Array("!!!!".utf8),  // not base64
            [0x00, 0x00, 0x00, 0x04, 0x00] + Array("S0VZ".utf8) + [0x00],  // a byte after the key
            [0x00, 0x00, 0x00, 0x04, 0x00] + Array("/w==".utf8),  // 0xFF: not UTF-8
            [0x42, 0x00, 0x00],  // unknown kind
            [0x00, 0x00, 0x00, 0xF0, 0x00] + Array(repeating: 0x41, count: 240),  // over the string limit
        ]
        for payload in cases {
            #expect(throws: WireError.self, "\(payload.prefix(8))") { try SamsungLegacyRequest(payload: payload) }
        }
    }

    static func decodeAll(_ bytes: [UInt8], chunk: Int) throws -> [SamsungLegacyPacket] {
        var buffer = InputBuffer()
        var packets: [SamsungLegacyPacket] = []
        var offset = 0
        while offset < bytes.count {
            buffer.append(bytes[offset..<min(bytes.count, offset + chunk)])
            offset += chunk
            while let (packet, used) = try SamsungLegacyPacket.decode(from: buffer.readable) {
                buffer.consume(used)
                packets.append(packet)
            }
        }
        #expect(buffer.isEmpty)
        return packets
    }
}
