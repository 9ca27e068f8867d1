import Wire

/// What a RenderingControl action answered.
public enum UPnPRenderingResult: Equatable, Sendable {
    case volume(Int)
    case mute(Bool)
    /// A Set action succeeded.
    case done
}

extension UPnPRenderingControl {
    /// SOAP answers are a few hundred bytes; 64 KiB bounds a misbehaving renderer.
    static let limits = XMLLimits(
        maxInputBytes: 64 * 1024, maxDepth: 16, maxElements: 512, maxAttributes: 512)

    /// Reads the answer to `action` (the HTTP body, whatever the status: a fault comes with
    /// 500, and a 200 must still hold the action's response).
    ///
    /// - Throws: `DriverError` `.rejected` for a SOAP fault, naming the UPnP `errorCode` and
    ///   `errorDescription` (401 Invalid Action, 402 Invalid Args, 501 Action Failed…);
    ///   `.badResponse` for anything that is not the expected response.
    public static func parseResponse(_ body: some Collection<UInt8>, for action: UPnPRenderingAction)
        throws(DriverError) -> UPnPRenderingResult
    {
        let root: XMLElement
        do {
            root = try XMLReader.parse(body, limits: limits)
        } catch {
            throw DriverError(.badResponse, "UPnP \(action.name): the answer is not XML (\(error))")
        }
        if let fault = root.firstDescendant(localName: "Fault") {
            throw faultError(fault, action: action)
        }
        guard let response = root.firstDescendant(localName: "\(action.name)Response") else {
            throw DriverError(
                .badResponse, "UPnP \(action.name): no \(action.name)Response in the answer")
        }
        switch action {
        case .setVolume, .setMute:
            return .done
        case .getVolume:
            guard let text = response.firstDescendant(localName: "CurrentVolume")?.trimmedText,
                let volume = Int(text), volume >= 0
            else { throw DriverError(.badResponse, "UPnP GetVolume: no valid CurrentVolume") }
            return .volume(min(volume, 100))
        case .getMute:
            switch response.firstDescendant(localName: "CurrentMute")?.trimmedText.lowercased() {
            case "1", "true", "yes": return .mute(true)
            case "0", "false", "no": return .mute(false)
            default: throw DriverError(.badResponse, "UPnP GetMute: no valid CurrentMute")
            }
        }
    }

    private static func faultError(_ fault: XMLElement, action: UPnPRenderingAction) -> DriverError {
        let code = fault.firstDescendant(localName: "errorCode")?.trimmedText
        let detail = fault.firstDescendant(localName: "errorDescription")?.trimmedText
        let faultString = fault.firstDescendant(localName: "faultstring")?.trimmedText
        var text = "UPnP \(action.name) failed"
        if let code, !code.isEmpty { text += ": error \(code.prefix(16))" }
        if let detail, !detail.isEmpty {
            text += " (\(detail.prefix(200)))"
        } else if let faultString, !faultString.isEmpty {
            text += " (\(faultString.prefix(200)))"
        }
        return DriverError(.rejected, text)
    }
}
