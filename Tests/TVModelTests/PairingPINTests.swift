import Testing

@testable import TVModel

@Suite("Pairing PINs: each vendor's form, and what any vendor's could be")
struct PairingPINTests {
    @Test("digits: 1 to 12 ASCII digits, nothing else; the refusal says so")
    func digits() {
        for pin in ["1", "1234", "123456789012"] { #expect(PairingPIN.digits.accepts(pin), "\(pin)") }
        for pin in ["", "1234567890123", "12ab", "12 34", "١٢٣٤", "-1"] {
            #expect(!PairingPIN.digits.accepts(pin), "\(pin)")
        }
        #expect(PairingPIN.digits.refusal == "a pairing PIN is 1 to 12 digits, as the TV shows it")
    }

    @Test("six hexadecimal digits: either case, exactly six; the refusal says so")
    func sixHexDigits() {
        for pin in ["AB12CD", "ab12cd", "000000", "FfFfFf"] { #expect(PairingPIN.sixHexDigits.accepts(pin), "\(pin)") }
        for pin in ["", "AB12C", "AB12CD0", "AB12CG", "AB 12C", "ＡＢ１２ＣＤ"] {
            #expect(!PairingPIN.sixHexDigits.accepts(pin), "\(pin)")
        }
        #expect(
            PairingPIN.sixHexDigits.refusal == "a pairing PIN is 6 hexadecimal digits (0-9, A-F), as the TV shows it")
    }

    @Test("plausible for some vendor: 1 to 12 ASCII letters and digits, no spaces or symbols")
    func plausible() {
        for pin in ["1", "AB12CD", "abcdefghijkl", "123456789012"] { #expect(PairingPIN.isPlausible(pin), "\(pin)") }
        for pin in ["", "1234567890123", "12 34", "12-34", "é1", "12\n"] {
            #expect(!PairingPIN.isPlausible(pin), "\(pin)")
        }
    }
}
