import TestSupport
import Testing

@testable import Wire

@Suite("Percent-encoding (RFC 3986)", .cpuBound)
struct HTTPPercentEncodingTests {
    static let segments: [(String, String)] = [
        ("Home", "Home"),
        ("-._~AZaz09", "-._~AZaz09"),
        ("€", "%E2%82%AC"),
        ("../", "..%2F"),
        ("%2F", "%252F"),
        ("a b", "a%20b"),
        ("\r\n", "%0D%0A"),
        ("\u{0}", "%00"),
        ("😀", "%F0%9F%98%80"),
        ("?#&=+;:@", "%3F%23%26%3D%2B%3B%3A%40"),
        ("é", "%C3%A9"),
        ("", ""),
    ]

    @Test("path segments keep only unreserved characters", arguments: segments)
    func encodePathSegment(input: String, expected: String) throws {
        #expect(PercentEncoding.encodePathSegment(input) == expected)
        #expect(try PercentEncoding.decode(expected) == input)
    }

    @Test("query components encode a space as %20 and a plus as %2B")
    func queryComponent() {
        #expect(PercentEncoding.encodeQueryComponent("a b+c") == "a%20b%2Bc")
        #expect(PercentEncoding.encodeQueryComponent("x=y&z") == "x%3Dy%26z")
    }

    @Test("a Roku Lit_ key percent-encodes the character's UTF-8 bytes")
    func literalKey() {
        #expect("Lit_" + PercentEncoding.encodePathSegment("€") == "Lit_%E2%82%AC")
        #expect("Lit_" + PercentEncoding.encodePathSegment("a") == "Lit_a")
        #expect("Lit_" + PercentEncoding.encodePathSegment("/") == "Lit_%2F")
    }

    @Test("a query is built in order from encoded pairs")
    func buildQuery() {
        let query = PercentEncoding.buildQuery([("contentId", "a b&c=d"), ("mediaType", "movie"), ("", "")])
        #expect(query == "contentId=a%20b%26c%3Dd&mediaType=movie&=")
        #expect(PercentEncoding.buildQuery([]) == "")
    }

    @Test("decoding leaves + alone; query decoding turns it into a space")
    func plus() throws {
        #expect(try PercentEncoding.decode("a+b%20c") == "a+b c")
        #expect(try PercentEncoding.decodeQueryComponent("a+b%2Bc") == "a b+c")
        #expect(try PercentEncoding.decode("lower%c3%a9") == "loweré")
    }

    @Test(
        "broken escapes and invalid UTF-8 are refused",
        arguments: ["%", "%2", "a%", "%G0", "%0G", "%FF", "%C3", "%C0%AF", "%ED%A0%80", "%F4%90%80%80"])
    func invalid(input: String) {
        #expect(throws: WireError.self) { try PercentEncoding.decode(input) }
    }
}
