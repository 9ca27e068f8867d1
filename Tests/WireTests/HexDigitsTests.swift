import Testing

@testable import Wire

@Suite("Hexadecimal digits")
struct HexDigitsTests {
    @Test("every byte value: the 22 digits read as themselves, nothing else reads")
    func everyByte() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            let value = HexDigits.value(byte)
            if let index = digits.firstIndex(of: byte) {
                #expect(value == UInt8(index < 16 ? index : index - 6), "\(byte)")
            } else {
                #expect(value == nil, "\(byte)")
            }
        }
    }

    @Test("bytes: two digits a byte, in either case; an odd count or a non-digit is nil")
    func bytes() {
        #expect(HexDigits.bytes(Array("00ff7Fa0".utf8)) == [0x00, 0xFF, 0x7F, 0xA0])
        #expect(HexDigits.bytes([]) == [])
        #expect(HexDigits.bytes(Array("abc".utf8)) == nil)
        #expect(HexDigits.bytes(Array("zz".utf8)) == nil)
        #expect(HexDigits.bytes(Array("0 ".utf8)) == nil)
    }
}
