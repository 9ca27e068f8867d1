import Wire

/// The file's `samsung` section.
public struct SamsungSettings: VendorSettings, Equatable {
    public init() {}

    /// The name shown on the TV's approval prompt; a Samsung token is bound to it, so it never changes.
    public var clientName = "tv2mqtt"
    /// App name → app id, for TVs that no longer list their installed apps.
    public var apps: [String: String] = ["Netflix": "3201907018807", "YouTube": "111299001912"]
    /// Input name → the keys that select it; empty: `SamsungInputs.defaults` (KEY_HDMI, KEY_SOURCE).
    public var inputs: [String: [String]] = [:]
    /// `samsung.events`: subscribe to the TVs' UPnP events for volume and mute.
    public var events = true
    /// `samsung.event_port`: where the TVs send those events (TCP, every interface); 0 = any free port.
    public var eventPort: UInt16 = 8058
    /// `samsung.event_callback_host`: the address the TVs send events to; nil = the bridge's
    /// own address on the connection to each TV.
    public var eventCallbackHost: String?

    public var effectiveMembers: [String: JSONValue] {
        [
            "client_name": .string(clientName),
            "apps": .object(apps.mapValues(JSONValue.string)),
            "inputs": .object(inputs.mapValues { .array($0.map(JSONValue.string)) }),
            "events": .bool(events),
            "event_port": .integer(Int64(eventPort)),
            "event_callback_host": .string(eventCallbackHost ?? ""),
        ]
    }

    /// One command and out: a UPnP event subscription would outlive its use.
    public var forOneCommand: SamsungSettings {
        var settings = self
        settings.events = false
        return settings
    }

    static let configuration = VendorConfiguration(
        key: "samsung", section: SamsungSettings.self, decode: decode, tvKeys: ["port_wss", "port_upnp", "inputs"],
        tvOptions: SamsungTVOptions.self, decodeTV: SamsungTVOptions.decode)
}
