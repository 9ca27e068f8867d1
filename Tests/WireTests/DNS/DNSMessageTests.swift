import Testing
import Wire
import TestSupport

/// DNS messages as multicast DNS carries them (RFC 1035, 6762, 6763): what an Android TV
/// answers for `_androidtvremote2._tcp.local`, compression, and every way a message can break.
@Suite("DNS messages")
struct DNSMessageTests {
    static let service = try! DNSName("_androidtvremote2._tcp.local")
    static let instance = try! DNSName(instance: "Living Room TV", service: service)
    static let host = try! DNSName("Android-3.local")

    /// What a Chromecast with Google TV answers (shape and values as such answers are seen;
    /// addresses from the documentation range).
    static let answer = DNSMessage.response(
        answers: [DNSRecord(name: service, type: .ptr, ttl: 4500, data: .ptr(instance))],
        additionals: [
            DNSRecord(
                name: instance, type: .srv, cacheFlush: true, ttl: 120,
                data: .srv(priority: 0, weight: 0, port: 6466, target: host)),
            DNSRecord(
                name: instance, type: .txt, cacheFlush: true, ttl: 4500,
                data: .txt([Array("bt=3C:5C:C4:12:34:56".utf8)])),
            DNSRecord(name: host, type: .a, cacheFlush: true, ttl: 120, data: .a([192, 0, 2, 10])),
            DNSRecord(
                name: host, type: .aaaa, cacheFlush: true, ttl: 120,
                data: .aaaa([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [0x0A])),
        ])

    @Test("a service answer round-trips; names are compressed; flags and the cache-flush bit survive")
    func roundTrip() throws {
        let bytes = Self.answer.encoded()
        #expect(Array(bytes.prefix(4)) == [0, 0, 0x84, 0x00], "id 0, QR and AA")
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded == Self.answer)
        #expect(decoded.isResponse && decoded.opcode == 0 && decoded.responseCode == 0)
        // Written in full, the service name alone would appear four times more.
        #expect(bytes.count < 200, "\(bytes.count) bytes: not compressed")
        let srv = try #require(decoded.additionals.first)
        #expect(srv.cacheFlush && srv.recordClass == 1)
        #expect(srv.name.firstLabel == "Living Room TV")
        #expect(srv.name.parent == Self.service)
    }

    @Test("a query asks for a unicast answer with the QU bit; names compare without ASCII case")
    func query() throws {
        let query = DNSMessage.query([
            DNSQuestion(name: Self.service, type: .ptr, unicastResponse: true),
            DNSQuestion(name: try DNSName("_androidtvremote._tcp.local."), type: .ptr),
        ])
        let bytes = query.encoded()
        #expect(Array(bytes[42..<46]) == [0x00, 0x0C, 0x80, 0x01], "PTR, QU + IN")
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded == query)
        #expect(!decoded.isResponse)
        #expect(try DNSName("_AndroidTVRemote2._TCP.Local") == Self.service)
        #expect(Self.instance.hasSuffix(try DNSName("LOCAL")))
        #expect(
            try DNSName(instance: "a.b\\c", service: Self.service).description
                == "a\\.b\\\\c._androidtvremote2._tcp.local")
    }

    @Test("TXT attributes: keys without case, the first occurrence wins, a bare key has no value")
    func txtAttributes() {
        let record = DNSRecord(
            name: Self.instance, type: .txt, ttl: 1,
            data: .txt(["BT=AA".utf8, "bt=BB".utf8, "flag".utf8, "".utf8, "=x".utf8, "empty=".utf8].map(Array.init)))
        let attributes = record.txtAttributes
        #expect(attributes["bt"] == .some(Array("AA".utf8)))
        #expect(attributes["flag"] == .some(nil))
        #expect(attributes["empty"] == .some([]))
        #expect(attributes.count == 3)
    }

    @Test("byte at a time: every proper prefix of an answer is refused as malformed, never read past")
    func everyPrefix() {
        let bytes = Self.answer.encoded()
        for length in 0..<bytes.count {
            #expect(throws: WireError.self, "prefix \(length)") {
                try DNSMessage(decoding: Array(bytes.prefix(length)))
            }
        }
    }

    /// A header announcing one question, then `name` and PTR/IN.
    static func question(_ name: [UInt8]) -> [UInt8] {
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + name + [0, 12, 0, 1]
    }

    @Test("pointers that loop, point forward or at themselves, and names past 255 bytes are refused")
    func hostileNames() {
        let cases: [([UInt8], String)] = [
            (Self.question([0xC0, 12]), "does not point back"),  // at itself
            (Self.question([0xC0, 14, 0]), "does not point back"),  // forward
            (Self.question([1, 0x61, 0xC0, 12]), "does not point back"),  // back to its own start: a loop
            (Self.question([0x40, 0]), "label type 1"),
            (Self.question([0x80, 0]), "label type 2"),
            (Array(Self.question([]).prefix(12)) + [3, 0x61], "a label cut short"),
            (Array(Self.question([]).prefix(12)) + [0xC0], "a pointer cut short"),
            (
                Self.question(
                    Array([[UInt8]](repeating: [63] + [UInt8](repeating: 0x61, count: 63), count: 4).joined()) + [0]),
                "over 255 bytes"
            ),
        ]
        for (bytes, reason) in cases {
            do {
                _ = try DNSMessage(decoding: bytes)
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.kind == .malformed && error.reason.contains(reason), "\(bytes): \(error)")
            }
        }
    }

    @Test("a chain of backward pointers is followed; the 255-byte bound holds across them")
    func pointerChain() throws {
        // "local" at 12, "_tcp" + pointer at 19, "a" + pointer at 26: "a._tcp.local".
        var bytes: [UInt8] = [0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0]
        bytes += [5] + Array("local".utf8) + [0, 0, 12, 0, 1]
        bytes += [4] + Array("_tcp".utf8) + [0xC0, 12, 0, 12, 0, 1]
        bytes += [1, 0x61, 0xC0, 23, 0, 12, 0, 1]
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded.questions.map(\.name.description) == ["local", "_tcp.local", "a._tcp.local"])
    }

    @Test("records whose data does not fit their type or length are refused; other types are kept as bytes")
    func badRecords() throws {
        func record(_ type: UInt16, _ data: [UInt8], length: Int? = nil) -> [UInt8] {
            let announced = UInt16(length ?? data.count)
            return [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, UInt8(type >> 8), UInt8(type & 0xFF), 0, 1]
                + [0, 0, 0, 120, UInt8(announced >> 8), UInt8(announced & 0xFF)] + data
        }
        let cases: [([UInt8], String)] = [
            (record(1, [192, 0, 2, 1, 9]), "an address of 5 bytes"),
            (record(28, [1, 2, 3, 4]), "an address of 4 bytes"),
            (record(33, [0, 0, 0, 0, 0x19]), "an SRV record of 5 bytes"),
            (record(16, [5, 0x61]), "a TXT string past its record"),
            (record(12, [1, 0x62, 0]), "",),  // fits: checked below
            (record(12, [1, 0x62, 0, 0]), "not its announced length"),
            (record(1, [192, 0, 2], length: 4), "4 bytes of record data announced, 3 left"),
            (Array(record(1, [192, 0, 2, 1]).dropLast(8)), "cut short"),
        ]
        for (bytes, reason) in cases where !reason.isEmpty {
            do {
                _ = try DNSMessage(decoding: bytes)
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.kind == .malformed && error.reason.contains(reason), "\(reason): \(error)")
            }
        }
        #expect(try DNSMessage(decoding: record(12, [1, 0x62, 0])).answers.first?.data == .ptr(try DNSName("b")))
        let nsec = try DNSMessage(decoding: record(47, [0xC0, 12, 0, 1, 0x40]))
        #expect(nsec.answers.first?.data == .other([0xC0, 12, 0, 1, 0x40]))
        #expect(nsec.answers.first?.type == .other(47))
    }

    @Test("a message over 9,000 bytes is refused before it is read; counts past the end are malformed")
    func bounds() {
        #expect(throws: WireError.tooLarge("DNS", "a message of 9001 bytes (at most 9000)")) {
            try DNSMessage(decoding: [UInt8](repeating: 0, count: 9001))
        }
        #expect(throws: WireError.self) {
            try DNSMessage(decoding: [0, 0, 0x84, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        }
        #expect(throws: WireError.self) { try DNSMessage(decoding: [0, 0, 0x84]) }
    }

    @Test("labels: empty or over 63 bytes, and names over 255 bytes, cannot be made")
    func nameLimits() {
        #expect(throws: WireError.self) { try DNSName("a..local") }
        #expect(throws: WireError.self) { try DNSName(String(repeating: "x", count: 64) + ".local") }
        #expect(throws: WireError.self) {
            try DNSName(Array(repeating: String(repeating: "x", count: 63), count: 4).joined(separator: "."))
        }
        #expect((try? DNSName(String(repeating: "x", count: 63) + ".local")) != nil)
    }
}

@Suite("DNS messages: another encoder's bytes")
struct DNSInteropTests {
    @Test("dnspython's encoding of an Android TV's answer decodes to the same records as ours")
    func dnspythonAnswer() throws {
        let bytes = try TestFixtures.bytes("mdns/androidtv-answer-dnspython.bin")
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded.isResponse)
        var ours = DNSMessageTests.answer.answers
        ours[0].cacheFlush = false  // a shared PTR record: no cache flush
        #expect(decoded.answers == ours)
        let additionals = decoded.additionals
        #expect(additionals.count == 4)
        #expect(additionals.first?.data == .srv(priority: 0, weight: 0, port: 6466, target: DNSMessageTests.host))
        #expect(additionals.dropFirst().first?.txtAttributes["bt"] == .some(Array("3C:5C:C4:12:34:56".utf8)))
        #expect(additionals.map(\.type) == [.srv, .txt, .a, .aaaa])
        #expect(additionals.dropFirst(2).first?.data == .a([192, 0, 2, 10]))
        #expect(additionals.first?.name.firstLabel == "Living Room TV")
    }
}
