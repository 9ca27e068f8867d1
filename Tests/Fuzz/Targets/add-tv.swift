// `bridge/request/tv/add` payloads (issue 17): JSONParser with the request limits, then
// AddTVRequest.parse, and a plain payload through AddTVAddress.parse (the "TV to add" text).

import Drivers
import Net
import Wire

@testable import Bridge

/// C0 and C1 controls and the Unicode line separators: what must never reach a log line.
private func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
    }
}

/// The vendors tv2mqtt ships, as its `main.swift` lists them.
private let vendors: [Vendor] = [.roku, .samsung, .samsungLegacy, .lg]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAddTV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var request: [String: JSONValue] = [:]
    var plain: String?
    switch try? JSONParser.parse(input.bytes, limits: JSONLimits(maxDepth: 4, maxBytes: 64 * 1024)) {
    case .object(let members)?: request = members
    case .string(let text)?: plain = text
    default: plain = String(validating: input.bytes, as: UTF8.self)
    }
    let parsed: AddTVRequest
    do throws(BridgeService.RequestError) {
        parsed = try AddTVRequest.parse(request, plain: plain, draft: nil, vendors: vendors)
    } catch {
        // Refusals are logged and published: the sender's text must not break the line.
        fuzzExpect(!hasControl(error.message), "control character in \(String(reflecting: error.message))")
        return 0
    }
    // What is probed and stored: an IP address in printable ASCII, a port 1…65535, a valid id.
    let host = parsed.address.host
    fuzzExpect(!host.isEmpty && !hasControl(host) && host.allSatisfy(\.isASCII), "host \(String(reflecting: host))")
    fuzzExpect((try? SocketAddress(ip: host, port: 1)) != nil, "host \(host) is not an address")
    fuzzExpect(parsed.address.port != 0, "port 0")
    if let name = parsed.name { fuzzExpect(!name.isEmpty && name.count <= 128 && !hasControl(name), "name") }
    if let id = parsed.id { fuzzExpect(id.rawValue != "bridge", "id bridge") }
    return 0
}
