import TestSupport
import Testing

@testable import Wire

private func decodeError(_ text: String) -> WireError? {
    do {
        _ = try Base64.decode(text)
        return nil
    } catch {
        return error
    }
}

@Suite("Base64", .cpuBound)
struct Base64Tests {
    @Test(
        "the RFC 4648 §10 test vectors encode and decode",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ])
    func rfcVectors(plain: String, encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64.decode(encoded) == Array(plain.utf8))
        #expect(try Base64.decode(bytes: Array(encoded.utf8)) == Array(plain.utf8))
    }

    @Test("both characters beyond A–Z, a–z and 0–9 use the standard alphabet (+ and /)")
    func standardAlphabet() throws {
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(try Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
    }

    @Test("a Samsung client name encodes as the TV expects")
    func samsungName() {
        #expect(Base64.encode(Array("tv2mqtt".utf8)) == "dHYybXF0dA==")
    }

    @Test("every byte value and every length up to 64 round-trips")
    func roundTrip() throws {
        let all = (0...255).map { UInt8($0) }
        #expect(try Base64.decode(Base64.encode(all)) == all)
        var generator = SystemRandomNumberGenerator()
        for count in 0...64 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count == (count + 2) / 3 * 4)
            #expect(try Base64.decode(text) == bytes)
            #expect(Base64.encodeToBytes(bytes) == Array(text.utf8))
        }
    }

    @Test(
        "non-canonical or corrupt input is malformed",
        arguments: [
            "Zg", "Zg=", "Zm9", "Z", "Zg===", "====", "=Zm9", "Zm=v", "Zg==Zg==", "Zm9v\n", "Zm 9v", "Zm9-", "Zm9_",
            "Zh==", "Zm9=", "Zm8!", "Zm9vYmFy=", "ü===",
        ])
    func malformed(text: String) {
        #expect(decodeError(text)?.kind == .malformed, "\(text.debugDescription)")
    }
}
