// HTTP/1.1 responses as the clients read them: HTTPResponseParser with Content-Length,
// chunked and read-until-close bodies, interim 1xx, 101 upgrades and HEAD.
import Wire

private struct Outcome: Equatable {
    var responses: [HTTPResponse] = []
    var error: WireError?
}

/// Small limits, so the size checks are reached by inputs of a fuzzer's size. Re-encoded
/// responses get 16 times more: bytes that are not UTF-8 come back as U+FFFD, three bytes each.
private func decode(_ chunks: [ArraySlice<UInt8>], method: String, scale: Int = 1) -> Outcome {
    var parser = HTTPResponseParser(maxHeaderBytes: 1024 * scale, maxBodyBytes: 2048 * scale)
    var outcome = Outcome()
    do throws(WireError) {
        for chunk in chunks {
            parser.append(chunk)
            while let response = try parser.next(requestMethod: method) { outcome.responses.append(response) }
        }
        // The peer closes: completes a body that runs to the close, or reports a cut one.
        while let response = try parser.finish(requestMethod: method) { outcome.responses.append(response) }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let method = input.selector(5) == 0 ? "HEAD" : "GET"
    let whole = decode([input.bytes[...]], method: method)
    let split = decode(input.chunks, method: method)
    fuzzExpect(whole == split, "whole \(whole) but split \(split)")
    // What the simulators' encoder accepts, the client reads back the same. The encoder frames
    // a body as for GET (a HEAD answer's headers may announce one it does not carry).
    for response in whole.responses {
        guard let bytes = try? response.encode() else { continue }
        let again = decode([bytes[...]], method: "GET", scale: 16)
        fuzzExpect(again.error == nil && again.responses.count == 1, "\(response) re-decodes as \(again)")
        guard let copy = again.responses.first else { continue }
        fuzzExpect(
            copy.status == response.status && copy.reason == response.reason
                && copy.version == response.version && copy.body == response.body,
            "\(response) re-decodes as \(copy)")
    }
    return 0
}
