/// What `GET /api/v2/applications/<id>` says about one app:
/// `{"id":"3201907018807","name":"Netflix","running":true,"version":"5.3.1","visible":true}`.
/// Booleans may be real or `"true"` strings; a missing one counts as false.
public struct SamsungAppStatus: Equatable, Sendable {
    public var id: String?
    public var name: String?
    public var running: Bool
    public var visible: Bool

    public init(id: String? = nil, name: String? = nil, running: Bool, visible: Bool) {
        self.id = id
        self.name = name
        self.running = running
        self.visible = visible
    }

    /// In front of the user: running and visible.
    public var inFront: Bool { running && visible }

    public static func parse(_ bytes: some Collection<UInt8>) throws(DriverError) -> SamsungAppStatus {
        let document = try SamsungJSON.parse(bytes, what: "application status")
        guard document.objectValue != nil else {
            throw DriverError(.badResponse, "Samsung application status is not a JSON object")
        }
        return SamsungAppStatus(
            id: SamsungJSON.string(document["id"]), name: SamsungJSON.string(document["name"]),
            running: SamsungJSON.bool(document["running"]) ?? false,
            visible: SamsungJSON.bool(document["visible"]) ?? false)
    }
}
