// HTTP/1.1 requests as the simulated TVs read them: HTTPRequestParser.
import Wire

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: WireError?
}

private func decode(_ chunks: [ArraySlice<UInt8>], scale: Int = 1) -> Outcome {
    // Small limits, so the size checks are reached by inputs of a fuzzer's size. Re-encoded
    // requests get 16 times more: bytes that are not UTF-8 come back as U+FFFD, three bytes each.
    var parser = HTTPRequestParser(maxHeaderBytes: 1024 * scale, maxBodyBytes: 2048 * scale)
    var outcome = Outcome()
    do throws(WireError) {
        for chunk in chunks {
            parser.append(chunk)
            while let request = try parser.next() { outcome.requests.append(request) }
        }
        while let request = try parser.finish() { outcome.requests.append(request) }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let whole = decode([input.bytes[...]])
    let split = decode(input.chunks)
    fuzzExpect(whole == split, "whole \(whole) but split \(split)")
    // What the client's encoder accepts, the simulators read back the same.
    for request in whole.requests {
        guard let bytes = try? request.encode() else { continue }
        let again = decode([bytes[...]], scale: 16)
        fuzzExpect(again.error == nil && again.requests.count == 1, "\(request) re-decodes as \(again)")
        guard let copy = again.requests.first else { continue }
        fuzzExpect(
            copy.method == request.method && copy.target == request.target
                && copy.version == request.version && copy.body == request.body,
            "\(request) re-decodes as \(copy)")
    }
    return 0
}
