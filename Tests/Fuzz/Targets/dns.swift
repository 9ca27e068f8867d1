// DNS messages as mDNS carries them (DNSMessage: names with compression pointers, PTR, SRV,
// TXT, A, AAAA and other records kept as bytes), and each record's TXT attributes.
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let message = try? DNSMessage(decoding: input.bytes) else { return 0 }
    fuzzExpect(input.bytes.count <= DNSMessage.maxBytes, "read \(input.bytes.count) bytes")
    for record in message.records {
        fuzzExpect(record.name.labels.reduce(1) { $0 + 1 + $1.count } <= DNSName.maxBytes, "a long name")
        _ = record.txtAttributes
        _ = record.name.description
    }
    // Written back (compressed our way), it reads the same, unless it grew past the limit.
    let encoded = message.encoded()
    if encoded.count <= DNSMessage.maxBytes {
        let again = try? DNSMessage(decoding: encoded)
        fuzzExpect(again == message, "\(message) re-reads as \(String(describing: again))")
    }
    return 0
}
