import Testing
import Wire

@testable import Drivers

/// Both Android TV codecs over every body, and over input cut short, grown, nested and
/// garbled: a clear `WireError` or a message, never a crash or a hang.
@Suite("Android TV messages: remote and pairing codecs, bad input", .cpuBound)
struct AndroidTVMessageCodecTests {
    static let remote: [AndroidTVRemoteMessage] = [
        .configure(AndroidTVFeatures(rawValue: 622), AndroidTVRemoteSession.ownDevice),
        .setActive(.wanted(ime: true)), .setActive([]),
        .error(.key(code: 26, .short)), .error(nil),
        .pingRequest(5), .pingRequest(-1), .pingResponse(5),
        .key(code: 3, .short), .key(code: 24, .startLong), .key(code: 24, .endLong),
        .appInFront(package: "com.google.android.youtube.tv"),
        .imeBatchEdit(imeCounter: 3, fieldCounter: 2, text: "héllo"),
        .imeBatchEdit(imeCounter: 0, fieldCounter: 0, text: nil),
        .start(started: true), .start(started: false),
        .volume(level: 12, maximum: 100, muted: true), .volume(level: 0, maximum: 0, muted: false),
        .appLink("https://www.netflix.com/title"), .other(field: 61),
    ]

    static let pairing: [AndroidTVPairingMessage] = [
        AndroidTVPairingMessage(.pairingRequest(serviceName: "atvremote", clientName: "tv2mqtt")),
        AndroidTVPairingMessage(.pairingRequestAck(serverName: "BRAVIA")),
        AndroidTVPairingMessage(.pairingRequestAck(serverName: nil)),
        AndroidTVPairingMessage(
            .options(inputEncodings: [.sixHexDigits], outputEncodings: [.sixHexDigits], preferredRole: 1)),
        AndroidTVPairingMessage(.options(inputEncodings: [], outputEncodings: [], preferredRole: nil)),
        AndroidTVPairingMessage(.configuration(.sixHexDigits, clientRole: 1)),
        AndroidTVPairingMessage(.configurationAck), AndroidTVPairingMessage(.secret(Array(0..<32))),
        AndroidTVPairingMessage(.secretAck(Array(0..<32))), AndroidTVPairingMessage(.none, status: 402),
    ]

    @Test("every remote body reads back as it was written")
    func remoteRoundTrip() throws {
        for message in Self.remote {
            #expect(try AndroidTVRemoteMessage(decoding: message.encoded().encoded()[...]) == message)
        }
    }

    @Test("every pairing body reads back as it was written")
    func pairingRoundTrip() throws {
        for message in Self.pairing {
            #expect(try AndroidTVPairingMessage(decoding: message.encoded().encoded()[...]) == message)
        }
    }

    @Test("a framed stream split at every byte gives its messages once each, in order")
    func byteAtATime() throws {
        let stream = Self.remote.flatMap { $0.framed() }
        var buffer: [UInt8] = []
        var read: [AndroidTVRemoteMessage] = []
        for byte in stream {
            buffer.append(byte)
            while let (body, used) = try ProtobufDelimited.decode(from: buffer[...]) {
                read.append(try AndroidTVRemoteMessage(decoding: body))
                buffer.removeFirst(used)
            }
        }
        #expect(read == Self.remote && buffer.isEmpty)
    }

    @Test("cut short at every byte: an error or a message, never a crash")
    func truncated() {
        for message in Self.remote {
            let bytes = message.encoded().encoded()
            for cut in 0..<bytes.count {
                _ = try? AndroidTVRemoteMessage(decoding: bytes[..<cut])
            }
        }
        for message in Self.pairing {
            let bytes = message.encoded().encoded()
            for cut in 0..<bytes.count {
                #expect((try? AndroidTVPairingMessage(decoding: bytes[..<cut])) != message)
            }
        }
    }

    @Test("a varint of 11 bytes and a length over the limit are refused before the body arrives")
    func oversized() throws {
        let eleven = [UInt8](repeating: 0xFF, count: 10) + [0x01]
        #expect(throws: WireError.self) { try ProtobufDelimited.decode(from: eleven[...]) }
        var prefix: [UInt8] = []
        ProtobufVarint.encode(UInt64(ProtobufDelimited.defaultMaxMessageBytes + 1), into: &prefix)
        #expect(throws: WireError.self) { try ProtobufDelimited.decode(from: prefix[...]) }
        #expect(throws: WireError.self) { try AndroidTVRemoteMessage(decoding: [0x0A, 0x05, 0x08][...]) }
    }

    @Test("errors nested in errors are read one level deep, so a hostile nesting cannot recurse")
    func nestedErrors() throws {
        var inner = ProtobufMessage()
        inner.append(40, message: ProtobufMessage())
        for _ in 0..<2000 {
            var error = ProtobufMessage()
            error.append(1, bool: true)
            error.append(2, message: inner)
            inner = ProtobufMessage()
            inner.append(3, message: error)
        }
        let message = try AndroidTVRemoteMessage(decoding: inner.encoded()[...])
        #expect(message == .error(.error(nil)))
    }

    @Test("a pairing message without a status, or a configuration without its encoding, is malformed")
    func pairingMalformed() {
        var noStatus = ProtobufMessage()
        noStatus.append(1, uint: 2)
        noStatus.append(31, message: ProtobufMessage())
        #expect(throws: WireError.self) { try AndroidTVPairingMessage(decoding: noStatus.encoded()[...]) }
        var bare = ProtobufMessage()
        bare.append(2, uint: 200)
        bare.append(30, message: ProtobufMessage())
        #expect(throws: WireError.self) { try AndroidTVPairingMessage(decoding: bare.encoded()[...]) }
    }

    @Test("random bytes: an error or a message, never a crash")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            _ = try? AndroidTVRemoteMessage(decoding: bytes[...])
            _ = try? AndroidTVPairingMessage(decoding: bytes[...])
        }
    }
}
