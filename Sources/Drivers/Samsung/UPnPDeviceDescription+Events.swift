import Wire

extension UPnPDeviceDescription {
    /// The event subscription path (`eventSubURL`) of the first `RenderingControl:1` service,
    /// made a path the same way as the control URL (`path(of:)`: never another host).
    ///
    /// - Returns: nil when the description lists no such service or it has no `eventSubURL`.
    /// - Throws: `DriverError` `.badResponse` for a document that is not XML.
    public static func renderingControlEventPath(_ body: some Collection<UInt8>) throws(DriverError) -> String? {
        try renderingControlURLPath(body, element: "eventSubURL")
    }
}

extension UPnPRenderingControl {
    /// The event URL of Samsung's DMR when its description cannot be read.
    public static let defaultEventPath = "/upnp/event/RenderingControl1"
    /// The DMR description's path on the UPnP port (the SSDP LOCATION of the renderer).
    public static let descriptionPath = "/dmr"
}
