import Wire

/// What a RenderingControl `LastChange` event says about volume and mute: each nil when the
/// event does not mention it (events list only what changed; the initial one lists all).
public struct UPnPRenderingChange: Equatable, Sendable {
    public var volume: Int?
    public var muted: Bool?

    public init(volume: Int? = nil, muted: Bool? = nil) {
        self.volume = volume
        self.muted = muted
    }

    public var isEmpty: Bool { volume == nil && muted == nil }
}

/// Reads the `LastChange` variable of RenderingControl:1 (UPnP AV RenderingControl §2.2.1):
/// an XML document carried, escaped, as the text of `<LastChange>` in a GENA property set.
///
/// ```
/// <Event xmlns="urn:schemas-upnp-org:metadata-1-0/RCS/"><InstanceID val="0">
///   <Mute channel="Master" val="0"/><Volume channel="Master" val="5"/>…
/// </InstanceID></Event>
/// ```
///
/// Only instance 0 and the `Master` channel count (Samsung's, and what the driver sets);
/// `LF`/`RF` and other variables (`Brightness`, `X_AudioPID`…) are ignored.
public enum UPnPLastChange {
    public static let variableName = "LastChange"
    /// A Samsung LastChange is about 500 bytes; 32 KiB bounds a misbehaving renderer.
    static let limits = XMLLimits(
        maxInputBytes: 32 * 1024, maxDepth: 8, maxElements: 512, maxAttributes: 1024, maxAttributesPerElement: 16)

    /// - Throws: `DriverError` `.badResponse` for a value that is not XML within `limits` or
    ///   whose root is not `Event`. A variable with an unreadable value is skipped, not fatal.
    public static func parse(_ value: String) throws(DriverError) -> UPnPRenderingChange {
        let root: XMLElement
        do {
            root = try XMLReader.parse(value, limits: limits)
        } catch {
            throw DriverError(.badResponse, "UPnP LastChange is not XML (\(error))")
        }
        guard root.localName == "Event" else {
            throw DriverError(.badResponse, "UPnP LastChange has no <Event> root")
        }
        var change = UPnPRenderingChange()
        for instance in root.children where instance.localName == "InstanceID" && instance.attribute("val") == "0" {
            for variable in instance.children where isMaster(variable) {
                guard let text = variable.attribute("val") else { continue }
                switch variable.localName {
                case "Volume":
                    if let level = Int(text.trimmingXMLSpaces), level >= 0 { change.volume = min(level, 100) }
                case "Mute":
                    switch text.trimmingXMLSpaces.lowercased() {
                    case "1", "true", "yes": change.muted = true
                    case "0", "false", "no": change.muted = false
                    default: break
                    }
                default: break
                }
            }
        }
        return change
    }

    /// `channel="Master"`, or no channel at all (a renderer with one channel may leave it out).
    private static func isMaster(_ variable: XMLElement) -> Bool {
        guard let channel = variable.attribute("channel") else { return true }
        return channel == "Master"
    }

    /// The change a GENA event message carries, from its `LastChange` property; nil when the
    /// message has none (a publisher may event other variables too).
    public static func change(in notify: GENANotify) throws(DriverError) -> UPnPRenderingChange? {
        guard let value = notify.value(of: variableName) else { return nil }
        return try parse(value)
    }
}

extension String {
    fileprivate var trimmingXMLSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            text = text.dropFirst()
        }
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            text = text.dropLast()
        }
        return String(text)
    }
}
