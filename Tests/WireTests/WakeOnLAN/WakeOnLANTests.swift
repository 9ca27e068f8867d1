import FoundationEssentials
import TestSupport
import Testing

@testable import Wire

@Suite("Wake-on-LAN", .cpuBound)
struct WakeOnLANTests {
    @Test(
        "every accepted spelling gives the canonical lowercase colon form",
        arguments: [
            "aa:bb:cc:dd:ee:f0", "AA:BB:CC:DD:EE:F0", "aa-bb-cc-dd-ee-f0", "AA-BB-CC-DD-EE-F0", "aabb.ccdd.eef0",
            "AABB.CCDD.EEF0", "aabbccddeef0", "AaBbCcDdEeF0",
        ])
    func spellings(text: String) throws {
        let address = try #require(MACAddress(text))
        #expect(address.description == "aa:bb:cc:dd:ee:f0")
        #expect(address.bytes == [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xF0])
    }

    @Test(
        "wrong lengths, mixed separators and non-hex digits are refused",
        arguments: [
            "", "aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:00", "aa:bb-cc:dd:ee:f0", "aa:bb:cc:dd:ee:fg", "aabbccddeef",
            "aabbccddeef00", "aabb:ccdd:eef0", "aa.bb.cc.dd.ee.f0", "a:b:c:d:e:f", " aa:bb:cc:dd:ee:f0",
            "aabb.ccdd-eef0",
            "aa::bb:cc:dd:ee", "+a:bb:cc:dd:ee:f0", "aa:bb:cc:dd:ee:f0\n",
        ])
    func refused(text: String) {
        #expect(MACAddress(text) == nil)
    }

    @Test(
        "all-zero, broadcast and multicast addresses are refused as wake targets",
        arguments: [
            "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff", "01:00:5e:00:00:fb", "33:33:00:00:00:01",
        ])
    func groupAddressesRefused(text: String) {
        #expect(MACAddress(text) == nil)
    }

    @Test("a locally administered unicast address is accepted")
    func locallyAdministered() {
        #expect(MACAddress("02:00:00:00:00:01") != nil)
        #expect(MACAddress(bytes: [0x02, 0, 0, 0, 0, 1])?.description == "02:00:00:00:00:01")
        #expect(MACAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test("MAC addresses encode and decode as their canonical string")
    func codable() throws {
        let address = try #require(MACAddress("B8-3E-59-12-34-56"))
        let data = try JSONEncoder().encode([address])
        #expect(String(decoding: data, as: UTF8.self) == #"["b8:3e:59:12:34:56"]"#)
        #expect(try JSONDecoder().decode([MACAddress].self, from: data) == [address])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MACAddress].self, from: Data(#"["nope"]"#.utf8))
        }
    }

    @Test("a magic packet is six 0xFF bytes then the MAC sixteen times (102 bytes)")
    func magicPacketGolden() throws {
        let address = try #require(MACAddress("02:02:03:04:05:06"))
        let packet = MagicPacket.make(for: address)
        #expect(packet.count == 102)
        let syncStream = packet.prefix(6).allSatisfy { $0 == 0xFF }
        #expect(syncStream)
        for repetition in 0..<16 {
            #expect(Array(packet[6 + repetition * 6..<12 + repetition * 6]) == [0x02, 0x02, 0x03, 0x04, 0x05, 0x06])
        }
    }

    @Test("parse recovers the MAC from 102 bytes and from 106/108 with a SecureOn password")
    func parseRoundTrip() throws {
        let address = try #require(MACAddress("b8:3e:59:12:34:56"))
        let packet = MagicPacket.make(for: address)
        #expect(MagicPacket.parse(packet) == address)
        #expect(MagicPacket.parse(packet + [1, 2, 3, 4]) == address)
        #expect(MagicPacket.parse(packet + [1, 2, 3, 4, 5, 6]) == address)
        #expect(MagicPacket.parse(packet[...]) == address)
    }

    @Test("parse refuses wrong lengths, a bad sync stream, inconsistent repetitions and group addresses")
    func parseRefuses() throws {
        let address = try #require(MACAddress("b8:3e:59:12:34:56"))
        let packet = MagicPacket.make(for: address)
        for count in [0, 6, 101, 103, 104, 105, 107, 109, 200] {
            let resized = Array((packet + [UInt8](repeating: 0, count: 200)).prefix(count))
            #expect(MagicPacket.parse(resized) == nil, "\(count) bytes")
        }
        var badSync = packet
        badSync[3] = 0xFE
        #expect(MagicPacket.parse(badSync) == nil)
        var badRepetition = packet
        badRepetition[101] ^= 1
        #expect(MagicPacket.parse(badRepetition) == nil)
        #expect(MagicPacket.parse([UInt8](repeating: 0xFF, count: 102)) == nil)
        #expect(MagicPacket.parse([UInt8](repeating: 0xFF, count: 6) + [UInt8](repeating: 0, count: 96)) == nil)
    }
}
