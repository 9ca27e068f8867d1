import Testing

@testable import Net

@Suite("Digest")
struct DigestTests {
    @Test("SHA-1 of 'abc' matches FIPS 180 example")
    func sha1Abc() {
        #expect(Digest.hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test("SHA-256 of the empty string matches the published value")
    func sha256Empty() {
        #expect(
            Digest.hex(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("random bytes: the length asked for, different each call, every byte value in 64 KiB")
    func randomDiffers() {
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
        let lengths = [0, 1, 7, 8, 9, 16, 33].map { SecureRandom.bytes($0).count }
        #expect(lengths == [0, 1, 7, 8, 9, 16, 33])
        // 65,536 uniform bytes miss one of the 256 values with probability ~256·e^-256.
        #expect(Set(SecureRandom.bytes(1 << 16)).count == 256)
    }
}
