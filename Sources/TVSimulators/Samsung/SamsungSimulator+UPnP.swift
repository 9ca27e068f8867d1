import Wire

/// UPnP on `portUPnP` (listening only while the TV is on): the MediaRenderer description at
/// `/dmr` and RenderingControl:1 SOAP actions for volume and mute.
extension SamsungSimulator {
    static let controlPath = "/upnp/control/RenderingControl1"

    func handleUPnP(_ request: HTTPRequest) -> SimHTTPReply {
        core.withLock { $0.httpRequests += 1 }
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        switch (request.method, path) {
        case ("GET", "/dmr"):
            var response = HTTPResponse(status: 200, body: Array(SamsungDocuments.dmr(identity).utf8))
            response.headers.set(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
            return SimHTTPReply(response)
        case ("POST", Self.controlPath):
            return SimHTTPReply(soap(request))
        case (_, Self.eventPath):
            return handleSubscription(request)
        case (_, "/dmr"), (_, Self.controlPath):
            return SimHTTPReply(SimResponse.methodNotAllowed)
        default:
            return SimHTTPReply(SimResponse.notFound)
        }
    }

    /// One SOAP action. The action comes from `SOAPACTION` (`"service#Action"`), checked
    /// against the body's element, as real renderers do.
    private func soap(_ request: HTTPRequest) -> HTTPResponse {
        var header = request.headers["SOAPACTION"] ?? ""
        header = header.trimmingQuotes
        let prefix = SamsungDocuments.renderingControl + "#"
        guard header.hasPrefix(prefix) else { return Self.fault(401, "Invalid Action") }
        let action = String(header.dropFirst(prefix.count))
        guard
            let root = try? XMLReader.parse(
                request.body,
                limits: XMLLimits(maxInputBytes: 64 * 1024, maxDepth: 16, maxElements: 256, maxAttributes: 256)),
            let element = root.firstDescendant(localName: action)
        else { return Self.fault(402, "Invalid Args") }
        guard element.firstChild(localName: "InstanceID")?.trimmedText == "0" else {
            return Self.fault(718, "Invalid InstanceID")
        }
        switch action {
        case "GetVolume":
            let volume = core.withLock { core in
                core.renderingReads += 1
                return core.state.volume
            }
            return Self.soapOK(SamsungDocuments.soapResponse(action, [("CurrentVolume", String(volume))]))
        case "GetMute":
            let muted = core.withLock { core in
                core.renderingReads += 1
                return core.state.muted
            }
            return Self.soapOK(SamsungDocuments.soapResponse(action, [("CurrentMute", muted ? "1" : "0")]))
        case "SetVolume":
            guard let text = element.firstChild(localName: "DesiredVolume")?.trimmedText, let volume = Int(text)
            else { return Self.fault(402, "Invalid Args") }
            guard (0...100).contains(volume) else {
                record(
                    "volume", ["volume": .integer(Int64(clamping: volume)), "via": "upnp", "refused": "out of range"])
                return Self.fault(501, "Action Failed")
            }
            core.withLock { core in
                record("volume", ["volume": .integer(Int64(volume)), "via": "upnp"])
                core.state.volume = volume
            }
            return Self.soapOK(SamsungDocuments.soapResponse(action, []))
        case "SetMute":
            let muted: Bool
            switch element.firstChild(localName: "DesiredMute")?.trimmedText.lowercased() {
            case "1", "true", "yes": muted = true
            case "0", "false", "no": muted = false
            default: return Self.fault(402, "Invalid Args")
            }
            core.withLock { core in
                record("mute", ["muted": .bool(muted), "via": "upnp"])
                core.state.muted = muted
            }
            return Self.soapOK(SamsungDocuments.soapResponse(action, []))
        default:
            return Self.fault(401, "Invalid Action")
        }
    }

    private static func soapOK(_ body: String) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(body.utf8))
        response.headers.set(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
        response.headers.set(name: "EXT", value: "")
        return response
    }

    private static func fault(_ code: Int, _ description: String) -> HTTPResponse {
        var response = HTTPResponse(
            status: 500, body: Array(SamsungDocuments.soapFault(code, description).utf8))
        response.headers.set(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
        return response
    }
}

extension String {
    /// Without one pair of surrounding double quotes (`SOAPACTION` is quoted; some clients don't).
    var trimmingQuotes: String {
        var text = Substring(self).drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        if text.count >= 2 && text.first == "\"" && text.last == "\"" { text = text.dropFirst().dropLast() }
        return String(text)
    }
}
