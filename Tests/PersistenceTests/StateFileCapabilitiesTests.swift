import Bridge
import Drivers
import Harness
import TVModel
import TestSupport
import Testing

@testable import Persistence

/// The capabilities a driver declares (the find-my-remote key, diagnostic sensors) are kept in
/// the state file, and a file written before they were declared still loads with them.
@Suite("State file: declared capabilities")
struct StateFileCapabilitiesTests {
    /// A TV entry as the earlier versions wrote it: a `findRemote` flag, no declared sensors,
    /// the Frame's `artMode` flag rather than a declared control.
    static func oldEntry(kind: String, id: String, artMode: Bool = false) -> String {
        """
        {"identity": {"id": "\(id)", "kind": "\(kind)", "name": "Den", "manufacturer": "M", "host": "127.0.0.2",
         "port": 1, "macs": []},
         "capabilities": {"power": false, "volumeKeys": true, "limitedMode": true, "findRemote": true,
          "artMode": \(artMode), "channelList": [], "inputs": [], "apps": []}}
        """
    }

    @Test("an old file's TVs get their vendor's find-remote key and sensors; a vendor without them gets none")
    func oldFile() throws {
        let directory = try TemporaryDirectory(prefix: "state-caps")
        defer { directory.remove() }
        let roku = Self.oldEntry(kind: Vendor.roku.kind.rawValue, id: "roku_old")
        let samsung = Self.oldEntry(kind: Vendor.samsung.kind.rawValue, id: "samsung_old")
        try FileText.write("{\"version\": 1, \"tvs\": [\(roku), \(samsung)]}", to: directory.file("state.json"))
        let tvs = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs
        #expect(tvs.count == 2)
        let rokuCapabilities = try #require(tvs.first?.capabilities)
        #expect(rokuCapabilities.findRemoteKey == Vendor.roku.findRemoteKey && rokuCapabilities.findRemoteKey != nil)
        #expect(rokuCapabilities.diagnosticSensors == Vendor.roku.diagnosticSensors)
        #expect(!rokuCapabilities.diagnosticSensors.isEmpty)
        let samsungCapabilities = try #require(tvs.last?.capabilities)
        #expect(samsungCapabilities.findRemoteKey == nil && samsungCapabilities.diagnosticSensors.isEmpty)
        #expect(samsungCapabilities.controls.isEmpty && rokuCapabilities.controls.isEmpty)
    }

    @Test("an old file's artMode flag becomes the Samsung driver's declared switch, and only on a Samsung")
    func oldArtModeFlag() throws {
        let directory = try TemporaryDirectory(prefix: "state-caps")
        defer { directory.remove() }
        let frame = Self.oldEntry(kind: Vendor.samsung.kind.rawValue, id: "samsung_frame", artMode: true)
        let roku = Self.oldEntry(kind: Vendor.roku.kind.rawValue, id: "roku_odd", artMode: true)
        try FileText.write("{\"version\": 1, \"tvs\": [\(frame), \(roku)]}", to: directory.file("state.json"))
        let tvs = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs
        #expect(tvs.count == 2)
        #expect(tvs.first?.capabilities?.controls == [SamsungArtMode.control])
        #expect(tvs.first?.capabilities?.artMode == true)
        #expect(tvs.last?.capabilities?.controls == [])
    }

    @Test("a saved key, sensors and controls load as saved, and a saved absence stays absent")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "state-caps")
        defer { directory.remove() }
        let identity = TVIdentity(
            id: TVID("roku_new")!, kind: Vendor.roku.kind, name: "Den", manufacturer: "M", host: "127.0.0.2", port: 1)
        var declared = PersistedTV(identity: identity)
        var capabilities = TVCapabilities(limitedMode: true)
        capabilities.findRemoteKey = "BEEP"
        capabilities.diagnosticSensors = [DiagnosticSensor(key: "remote_setting", name: "Remote setting")]
        capabilities.controls = [
            SamsungArtMode.control,
            DeclaredControl(key: "picture_mode", platform: .select, name: "Picture mode", options: ["vivid", "movie"]),
        ]
        declared.capabilities = capabilities
        var plain = PersistedTV(identity: identity)
        plain.identity.id = TVID("roku_plain")!
        plain.capabilities = TVCapabilities(limitedMode: true)
        let store = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        try store.save(PersistedState(tvs: [declared, plain]))
        let loaded = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load()
        #expect(loaded == PersistedState(tvs: [declared, plain]))
    }
}
