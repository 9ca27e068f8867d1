import Wire

// UPnP events (GENA): a NOTIFY request as the bridge's listener reads it (HTTPRequestParser
// with the listener's limits → GENANotify.parse → the LastChange of RenderingControl), and
// the same input as a bare property set body and as a bare LastChange value.
@testable import Drivers

private func checkChange(_ change: UPnPRenderingChange?) {
    if let volume = change?.volume {
        // Published as the volume entity's state (0…100).
        fuzzExpect((0...100).contains(volume), "volume \(volume) out of range")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGENA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var parser = HTTPRequestParser(maxHeaderBytes: GENANotify.maxHeaderBytes, maxBodyBytes: GENANotify.maxBodyBytes)
    for chunk in input.chunks { parser.append(chunk) }
    if let request = try? parser.next() {
        do {
            let notify = try GENANotify.parse(request)
            fuzzExpect(GENA.isValidSID(notify.sid), "accepted an invalid SID")
            checkChange(try? UPnPLastChange.change(in: notify))
        } catch {
            fuzzExpect(error.status == 400 || error.status == 412, "refused with \(error.status)")
        }
    }
    if let properties = try? GENANotify.properties(input.bytes) {
        for property in properties where property.name == UPnPLastChange.variableName {
            checkChange(try? UPnPLastChange.parse(property.value))
        }
    }
    checkChange(try? UPnPLastChange.parse(String(decoding: input.bytes, as: UTF8.self)))
    if let seconds = GENA.parseTimeout(String(decoding: input.bytes.prefix(64), as: UTF8.self)) {
        fuzzExpect(seconds > 0, "timeout \(seconds)")
    }
    return 0
}
