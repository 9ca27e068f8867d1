// SSDP datagrams (search, response, notify): SSDPMessage.parse and the typed views on it.
import Wire

/// A typed message re-encoded parses back to the same value, unless the encoding outgrew
/// the parser's limits: the encoders add fields (EXT, HOST…) to what was received, so a
/// datagram already at 64 fields or 8 KiB may legitimately come back too large.
private func checkRoundTrip<T: Equatable>(
    _ value: T, encoded: [UInt8], fieldCount: Int, typed: (SSDPHeaders) throws -> T
) {
    guard fieldCount <= SSDPMessage.maxHeaderCount - 4, encoded.count <= SSDPMessage.maxDatagramSize else { return }
    let again = (try? SSDPMessage.parse(encoded)).flatMap { try? typed($0.headers) }
    fuzzExpect(again == value, "\(value) re-parses as \(String(describing: again))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSDP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let message = try? SSDPMessage.parse(input.bytes) else { return 0 }
    // The header accessors the discoverer uses parse numbers and URLs of their own.
    let headers = message.headers
    let count = headers.fields.count
    _ = (headers.maxAge, headers.mx, headers.man, headers.udn, headers.locationURL, headers.notificationSubtype)
    switch message {
    case .search(let headers):
        guard let search = try? SSDPSearch(headers: headers) else { break }
        checkRoundTrip(search, encoded: search.encode(), fieldCount: count) { try SSDPSearch(headers: $0) }
    case .response(let headers):
        guard let response = try? SSDPResponse(headers: headers) else { break }
        checkRoundTrip(response, encoded: response.encode(), fieldCount: count) { try SSDPResponse(headers: $0) }
    case .notify(let headers):
        guard let notify = try? SSDPNotify(headers: headers) else { break }
        checkRoundTrip(notify, encoded: notify.encode(), fieldCount: count) { try SSDPNotify(headers: $0) }
    }
    return 0
}
