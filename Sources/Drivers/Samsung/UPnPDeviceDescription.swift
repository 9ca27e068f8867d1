import Wire

/// Reads a UPnP device description (the DMR's `http://IP:9197/dmr`) for the
/// RenderingControl service's control URL.
public enum UPnPDeviceDescription {
    static let limits = XMLLimits(
        maxInputBytes: 256 * 1024, maxDepth: 32, maxElements: 4096, maxAttributes: 4096)

    /// The control path of the first `RenderingControl:1` service, in any embedded device.
    ///
    /// Only a path is returned: an absolute control URL (`http://other-host/…`) gives its path
    /// and query, and requests still go to the TV's own address, so a description cannot send
    /// us anywhere else. A relative path gets a leading `/`.
    ///
    /// - Returns: `nil` when the description lists no RenderingControl service.
    /// - Throws: `DriverError` `.badResponse` for a document that is not XML.
    public static func renderingControlPath(_ body: some Collection<UInt8>) throws(DriverError)
        -> String?
    {
        try renderingControlURLPath(body, element: "controlURL")
    }

    /// The path of one URL element (`controlURL`, `eventSubURL`) of the RenderingControl service.
    static func renderingControlURLPath(_ body: some Collection<UInt8>, element: String) throws(DriverError)
        -> String?
    {
        let root: XMLElement
        do {
            root = try XMLReader.parse(body, limits: limits)
        } catch {
            throw DriverError(.badResponse, "UPnP device description is not XML (\(error))")
        }
        guard let service = findService(in: root, type: UPnPRenderingControl.serviceType),
            let url = service.firstChild(localName: element)?.trimmedText, !url.isEmpty
        else { return nil }
        return path(of: url)
    }

    private static func findService(in element: XMLElement, type: String) -> XMLElement? {
        if element.localName == "service",
            element.firstChild(localName: "serviceType")?.trimmedText == type
        {
            return element
        }
        for child in element.children {
            if let found = findService(in: child, type: type) { return found }
        }
        return nil
    }

    static func path(of url: String) -> String? {
        if url.contains("://") {
            guard let parts = try? URLParts(parsing: url) else { return nil }
            return parts.requestTarget
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return url.hasPrefix("/") ? url : "/" + url
    }
}
