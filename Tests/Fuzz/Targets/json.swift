// JSON (RFC 8259): JSONParser, the generic path of every JSON the bridge reads (commands,
// bridge requests, Samsung and ECP-2 messages, the state file, the configuration).
import Wire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    // A shallow limit too, so the depth check is reached by small inputs.
    let limits = input.selector(2) == 0 ? JSONLimits.default : JSONLimits(maxDepth: 4, maxBytes: 1 << 20)
    guard let value = try? JSONParser.parse(input.bytes, limits: limits) else { return 0 }
    // serialize → parse → serialize is a fixed point. (Not value equality: 1.0 is written
    // "1" and reads back as an integer, by design.)
    let text = value.serialized()
    let again: JSONValue
    do throws(WireError) {
        again = try JSONParser.parse(text, limits: limits)
    } catch {
        fuzzExpect(false, "\(text) does not re-parse: \(error)")
        return 0
    }
    fuzzExpect(again.serialized() == text, "\(text) re-serialises as \(again.serialized())")
    // Pretty printing is what `check-config` and the logs show; it must read back the same.
    let pretty = try? JSONParser.parse(value.prettyPrinted(), limits: limits)
    fuzzExpect(pretty?.serialized() == text, "pretty form of \(text) reads back as \(String(describing: pretty))")
    return 0
}
