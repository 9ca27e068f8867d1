/// A DNS message (RFC 1035 §4), as multicast DNS sends it (RFC 6762): the header, questions and
/// the three record sections, names compressed by pointers. Decoding is bounded: the message
/// at most `maxBytes`, every pointer strictly backwards from the lowest offset the name has
/// reached (so no loop), names at most 255 bytes, each record's data exactly its length.
public struct DNSMessage: Equatable, Sendable {
    public var id: UInt16
    /// The header's second word: QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE.
    public var flags: UInt16
    public var questions: [DNSQuestion]
    public var answers: [DNSRecord]
    public var authorities: [DNSRecord]
    public var additionals: [DNSRecord]

    /// The largest mDNS message (RFC 6762 §17), also the largest we read.
    public static let maxBytes = 9000

    public init(
        id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSRecord] = [],
        authorities: [DNSRecord] = [], additionals: [DNSRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// An mDNS query (id 0, no flags).
    public static func query(_ questions: [DNSQuestion]) -> DNSMessage { DNSMessage(questions: questions) }

    /// An mDNS response: QR and AA set, id 0 (RFC 6762 §18).
    public static func response(answers: [DNSRecord], additionals: [DNSRecord] = []) -> DNSMessage {
        DNSMessage(flags: 0x8400, answers: answers, additionals: additionals)
    }

    public var isResponse: Bool { flags & 0x8000 != 0 }
    public var opcode: UInt8 { UInt8((flags >> 11) & 0xF) }
    public var isTruncated: Bool { flags & 0x0200 != 0 }
    public var responseCode: UInt8 { UInt8(flags & 0xF) }

    /// Every record of the three sections.
    public var records: [DNSRecord] { answers + authorities + additionals }

    /// - Throws: `tooLarge` past `maxBytes`; `malformed` for a header, name or record cut
    ///   short, a bad pointer, label type or length, or data of the wrong size for its type.
    public init(decoding bytes: [UInt8]) throws(WireError) {
        guard bytes.count <= Self.maxBytes else {
            throw .tooLarge("DNS", "a message of \(bytes.count) bytes (at most \(Self.maxBytes))")
        }
        var reader = DNSReader(bytes: bytes)
        guard bytes.count >= 12 else { throw .malformed("DNS", "a header of \(bytes.count) bytes (12)") }
        id = reader.uint16()
        flags = reader.uint16()
        let counts = (0..<4).map { _ in Int(reader.uint16()) }
        questions = []
        for _ in 0..<counts[0] {
            let name = try reader.name()
            let (type, recordClass) = try (
                reader.checkedUInt16("a question's type"), reader.checkedUInt16("a question's class")
            )
            questions.append(
                DNSQuestion(
                    name: name, type: DNSRecordType(code: type), unicastResponse: recordClass & 0x8000 != 0,
                    recordClass: recordClass & 0x7FFF))
        }
        var sections: [[DNSRecord]] = []
        for count in counts.dropFirst() {
            var section: [DNSRecord] = []
            for _ in 0..<count { section.append(try reader.record()) }
            sections.append(section)
        }
        (answers, authorities, additionals) = (sections[0], sections[1], sections[2])
    }

    /// The wire form, each name compressed against the names before it.
    public func encoded() -> [UInt8] {
        var writer = DNSWriter()
        writer.uint16(id)
        writer.uint16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            writer.uint16(UInt16(clamping: count))
        }
        for question in questions {
            writer.name(question.name)
            writer.uint16(question.type.code)
            writer.uint16(question.recordClass | (question.unicastResponse ? 0x8000 : 0))
        }
        for record in answers + authorities + additionals { writer.record(record) }
        return writer.bytes
    }
}
