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

    @Test("random bytes differ between calls")
    func randomDiffers() {
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
        #expect(SecureRandom.bytes(7).count == 7)
    }
}
