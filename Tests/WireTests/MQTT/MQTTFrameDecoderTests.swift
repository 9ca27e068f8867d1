import TestSupport
import Testing
import Wire

@Suite("MQTT frame decoder", .cpuBound)
struct MQTTFrameDecoderTests {
    /// A mixed stream of client and server packets of different sizes.
    static func mixedStream() throws -> (packets: [MQTTPacket], bytes: [UInt8]) {
        let packets: [MQTTPacket] = [
            .connect(MQTTConnect(clientID: "bridge", keepAlive: 30)),
            .connAck(MQTTConnAck()),
            .subscribe(MQTTSubscribe(packetID: 1, subscriptions: [MQTTSubscription(filter: "a/#", qos: .atLeastOnce)])),
            .subAck(MQTTSubAck(packetID: 1, returnCodes: [.granted(.atLeastOnce)])),
            .publish(
                MQTTPublish(topic: "a/b", payload: Array(repeating: 0x5A, count: 200), qos: .atLeastOnce, packetID: 2)),
            .pubAck(2),
            .publish(MQTTPublish(topic: "a/c", payload: [])),
            .pingReq, .pingResp,
            .publish(
                MQTTPublish(topic: "a/d", payload: Array(repeating: 1, count: 20_000), qos: .exactlyOnce, packetID: 3)),
            .pubRec(3), .pubRel(3), .pubComp(3),
            .unsubscribe(MQTTUnsubscribe(packetID: 4, filters: ["a/#"])),
            .unsubAck(4), .disconnect,
        ]
        var bytes: [UInt8] = []
        for packet in packets { try packet.encode(into: &bytes) }
        return (packets, bytes)
    }

    @Test("an empty decoder returns nil")
    func emptyReturnsNil() throws {
        var decoder = MQTTFrameDecoder()
        #expect(try decoder.next() == nil)
        decoder.append([])
        #expect(try decoder.next() == nil)
    }

    @Test("a stream delivered one byte at a time yields every packet in order")
    func byteAtATime() throws {
        let (packets, bytes) = try Self.mixedStream()
        var decoder = MQTTFrameDecoder()
        var decoded: [MQTTPacket] = []
        for byte in bytes {
            decoder.append(CollectionOfOne(byte))
            while let packet = try decoder.next() { decoded.append(packet) }
        }
        #expect(decoded == packets)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("a stream split at random points yields every packet in order", arguments: [1, 2, 3, 42, 1234])
    func randomSplits(seed: UInt64) throws {
        let (packets, bytes) = try Self.mixedStream()
        var generator = MQTTSeededGenerator(state: seed)
        var decoder = MQTTFrameDecoder()
        var decoded: [MQTTPacket] = []
        var offset = 0
        while offset < bytes.count {
            let chunk = Int.random(in: 1...700, using: &generator)
            let end = min(bytes.count, offset + chunk)
            decoder.append(bytes[offset..<end])
            offset = end
            while let packet = try decoder.next() { decoded.append(packet) }
        }
        #expect(decoded == packets)
    }

    @Test("every strict prefix of a packet returns nil, the whole packet decodes")
    func truncatedReturnsNil() throws {
        let bytes = try MQTTPacket.publish(
            MQTTPublish(topic: "t/u", payload: Array(repeating: 7, count: 130), qos: .atLeastOnce, packetID: 5)
        ).encoded()
        for length in 0..<bytes.count {
            var decoder = MQTTFrameDecoder()
            decoder.append(bytes.prefix(length))
            #expect(try decoder.next() == nil)
            #expect(decoder.bufferedByteCount == length)
        }
        #expect(try MQTTTestSupport.decodeOne(bytes) != nil)
    }

    @Test("a fifth remaining-length byte is malformed as soon as the fourth announces it")
    func fiveByteVarintIsMalformed() throws {
        var decoder = MQTTFrameDecoder(maxPacketSize: .max)
        decoder.append([0x30, 0xFF, 0xFF, 0xFF])
        #expect(try decoder.next() == nil)
        decoder.append([0xFF])
        let error = #expect(throws: WireError.self) { try decoder.next() }
        #expect(error?.kind == .malformed)
        // The decoder stays failed: the stream cannot be resynced.
        #expect(throws: WireError.self) { try decoder.next() }
    }

    @Test("a four-byte remaining length of 0x80 0x80 0x80 0x01 frames 2097152 bytes")
    func fourByteLengthAccepted() throws {
        var decoder = MQTTFrameDecoder(maxPacketSize: .max)
        decoder.append([0x30, 0x80, 0x80, 0x80, 0x01])
        #expect(try decoder.next() == nil)
    }

    /// Remaining lengths at the edges of each varint width (§2.2.3, Table 2.4).
    static let boundaries: [(length: Int, varint: [UInt8])] = [
        (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
        (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01]),
    ]

    @Test("boundary remaining lengths encode to the table's varints and round-trip", arguments: boundaries)
    func boundaryLengths(length: Int, varint: [UInt8]) throws {
        // A QoS 0 PUBLISH to "t" has 3 bytes of topic; the payload fills the rest.
        let publish = MQTTPublish(topic: "t", payload: Array(repeating: 0xA5, count: length - 3))
        let bytes = try MQTTPacket.publish(publish).encoded()
        #expect(bytes[0] == 0x30)
        #expect(Array(bytes[1...varint.count]) == varint)
        #expect(bytes.count == 1 + varint.count + length)
        #expect(try MQTTTestSupport.decodeAll(bytes, maxPacketSize: .max) == [.publish(publish)])
    }

    @Test("remaining length 0 is PINGREQ's two bytes")
    func zeroLength() throws {
        #expect(try MQTTPacket.pingReq.encoded() == [0xC0, 0x00])
        #expect(try MQTTTestSupport.decodeAll([0xC0, 0x00, 0xE0, 0x00]) == [.pingReq, .disconnect])
    }

    @Test("the largest remaining length, 268435455, encodes as FF FF FF 7F; one more byte is too large")
    func maximumRemainingLength() throws {
        var publish = MQTTPublish(topic: "t", payload: Array(repeating: 0, count: 268_435_455 - 3))
        var bytes: [UInt8] = []
        try MQTTPacket.publish(publish).encode(into: &bytes)
        #expect(Array(bytes.prefix(5)) == [0x30, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(bytes.count == 268_435_460)

        var decoder = MQTTFrameDecoder(maxPacketSize: .max)
        decoder.append(bytes.prefix(5))
        #expect(try decoder.next() == nil)
        bytes = []

        publish.payload.append(0)
        let error = #expect(throws: WireError.self) { try MQTTPacket.publish(publish).encodedSize() }
        #expect(error?.kind == .tooLarge)
    }

    @Test("a packet over the size limit is refused as soon as its length is known")
    func oversizeRejectedBeforeBody() throws {
        var decoder = MQTTFrameDecoder(maxPacketSize: 100)
        // Remaining length 98 makes a 100-byte packet: allowed, waits for the body.
        decoder.append([0x30, 0x62])
        #expect(try decoder.next() == nil)

        var tooBig = MQTTFrameDecoder(maxPacketSize: 100)
        // Remaining length 99: 101 bytes in all, one over.
        tooBig.append([0x30, 0x63])
        let error = #expect(throws: WireError.self) { try tooBig.next() }
        #expect(error?.kind == .tooLarge)
        #expect(tooBig.bufferedByteCount == 2)

        var huge = MQTTFrameDecoder()
        huge.append([0x30, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: WireError.self) { try huge.next() }
    }

    @Test("many packets in one append are all returned")
    func manyInOneAppend() throws {
        var bytes: [UInt8] = []
        for id in 1...5_000 { try MQTTPacket.pubAck(UInt16(id)).encode(into: &bytes) }
        let packets = try MQTTTestSupport.decodeAll(bytes)
        #expect(packets.count == 5_000)
        #expect(packets.last == .pubAck(5_000))
    }

    @Test("nextFrame skips an oversize PUBLISH: reported once its header is in, its body dropped unbuffered")
    func oversizePublishSkipped() throws {
        let big = try MQTTPacket.publish(
            MQTTPublish(
                topic: "tv/set", payload: [UInt8](repeating: 0x61, count: 2_000_000), qos: .atLeastOnce, retain: true,
                packetID: 9)
        ).encoded()
        let after = try MQTTPacket.pubAck(3).encoded()
        var decoder = MQTTFrameDecoder(maxPacketSize: 1 << 20)
        var frames: [MQTTFrame] = []
        var mostBuffered = 0
        let stream = big + after
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + 64 * 1024)
            decoder.append(stream[start..<end])
            while let frame = try decoder.nextFrame() { frames.append(frame) }
            mostBuffered = max(mostBuffered, decoder.bufferedByteCount)
            start = end
        }
        #expect(
            frames == [
                .oversizePublish(
                    MQTTOversizePublish(topic: "tv/set", qos: .atLeastOnce, retain: true, packetID: 9, size: big.count)),
                .packet(.pubAck(3)),
            ])
        #expect(mostBuffered < 64 * 1024, "the body must be dropped as it arrives, not buffered")
        #expect(!decoder.isInsidePacket)
        // next() keeps refusing it: other users (tests, fuzzing) see the limit as an error.
        var strict = MQTTFrameDecoder(maxPacketSize: 1 << 20)
        strict.append(big.prefix(10))
        #expect(throws: WireError.self) { try strict.next() }
    }

    @Test("an oversize PUBLISH whose topic length runs past the packet is malformed, not awaited")
    func oversizePublishBadTopicLength() {
        var decoder = MQTTFrameDecoder(maxPacketSize: 10)
        // Remaining length 20, topic length 0xFFFF: the topic cannot fit.
        decoder.append([0x30, 0x14, 0xFF, 0xFF])
        let error = #expect(throws: WireError.self) { try decoder.nextFrame() }
        #expect(error?.kind == .malformed)
    }

}
