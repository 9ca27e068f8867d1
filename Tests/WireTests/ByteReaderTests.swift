import TestSupport
import Testing

@testable import Wire

@Suite("ByteReader and ByteWriter", .cpuBound)
struct ByteReaderTests {
    @Test("integers round-trip big-endian")
    func integersRoundTrip() {
        var writer = ByteWriter()
        writer.writeUInt8(0xAB)
        writer.writeUInt16(0x1234)
        writer.writeUInt32(0xDEAD_BEEF)
        writer.writeUInt64(0x0102_0304_0506_0708)
        #expect(writer.bytes.prefix(3) == [0xAB, 0x12, 0x34])
        var reader = ByteReader(writer.bytes)
        #expect(reader.readUInt8() == 0xAB)
        #expect(reader.readUInt16() == 0x1234)
        #expect(reader.readUInt32() == 0xDEAD_BEEF)
        #expect(reader.readUInt64() == 0x0102_0304_0506_0708)
        #expect(reader.isAtEnd)
    }

    @Test("short input returns nil and consumes nothing")
    func shortInputReturnsNil() {
        var reader = ByteReader([0x01])
        #expect(reader.readUInt16() == nil)
        #expect(reader.readBytes(2) == nil)
        #expect(reader.remaining == 1)
        #expect(reader.readUInt8() == 1)
        #expect(reader.readUInt8() == nil)
    }

    @Test("a reader over a slice starts at the slice's own index")
    func sliceIndices() {
        let bytes: [UInt8] = [9, 9, 1, 2]
        var reader = ByteReader(bytes[2...])
        #expect(reader.readUInt16() == 0x0102)
    }

    @Test("InputBuffer consumes and compacts without losing bytes")
    func inputBufferCompacts() {
        var buffer = InputBuffer()
        var expected: [UInt8] = []
        for round in 0..<2000 {
            let chunk = (0..<7).map { UInt8(truncatingIfNeeded: round * 7 + $0) }
            buffer.append(chunk)
            expected += chunk
            let taken = buffer.take(5)
            #expect(taken == Array(expected.prefix(5)))
            expected.removeFirst(5)
        }
        #expect(Array(buffer.readable) == expected)
        #expect(buffer.takeAll() == expected)
        #expect(buffer.isEmpty)
    }
}
