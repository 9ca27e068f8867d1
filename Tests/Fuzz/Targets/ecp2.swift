import TVModel
import Wire

// Roku ECP-2: a text message as the WebSocket delivers it, read the way the driver reads it
// (ECP2Message.parse; a response's base64 content, which is the active-app or media-player
// XML; a notify applied to a snapshot by RokuECP2Events).
@testable import Drivers

// The snapshots a notify can meet: before any power report, on with an app, in standby.
private let apps = [
    RokuApp(id: "12", name: "Netflix", type: "appl"),
    RokuApp(id: "tvinput.hdmi1", name: "Blu-ray player", type: "tvin"),
]
private let snapshots = [
    TVSnapshot(reachable: true),
    TVSnapshot(
        reachable: true, power: true, powerMode: "PowerOn", app: "Netflix", appID: "12", mediaState: .playing,
        position: 12, duration: 3600, volume: 20, muted: false),
    TVSnapshot(reachable: true, power: false, powerMode: "DisplayOff"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzECP2(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    // The WebSocket layer hands over only valid UTF-8 text.
    guard let text = String(validating: input.bytes, as: UTF8.self),
        let message = try? ECP2Message.parse(text)
    else { return 0 }
    fuzzExpect(message.kind != nil, "parsed a message of no kind: \(message.fields)")
    // What the bridge sends is what the simulated TV reads: the serialized form parses back.
    let again = try? ECP2Message.parse(message.serialized())
    fuzzExpect(again == message, "\(message.fields) does not survive serialize → parse")
    _ = message.isSuccess

    if let content = try? message.content() {
        fuzzExpect(
            (try? Base64.decode(Base64.encode(content))) == content, "base64 round trip of \(content.count) bytes")
        _ = try? RokuActiveApp.parse(content)
        if let player = try? RokuMediaPlayer.parse(content) {
            fuzzExpect(player.position?.isFinite ?? true, "position \(String(describing: player.position))")
        }
    }

    for start in snapshots {
        var snapshot = start
        let outcome = RokuECP2Events.apply(message, to: &snapshot, apps: apps)
        fuzzExpect(outcome.changed == (snapshot != start), "changed says \(outcome.changed)")
        check(snapshot)
        // A notify repeated (a TV resending, a reconnect) changes nothing the second time.
        var repeated = snapshot
        let second = RokuECP2Events.apply(message, to: &repeated, apps: apps)
        fuzzExpect(!second.changed && repeated == snapshot, "\(message.fields) applied twice changes again")
    }
    return 0
}

/// What the state document and the entities rely on.
private func check(_ snapshot: TVSnapshot) {
    if let volume = snapshot.volume { fuzzExpect((0...100).contains(volume), "volume \(volume)") }
    for value in [snapshot.position, snapshot.duration] {
        if let value { fuzzExpect(value.isFinite && value >= 0, "time \(value)") }
    }
    if let mode = snapshot.powerMode {
        fuzzExpect(!mode.isEmpty && mode.utf8.count <= 64, "power mode \(mode)")
        fuzzExpect(snapshot.power == (mode == "PowerOn"), "power \(String(describing: snapshot.power)) in \(mode)")
    }
    if let id = snapshot.appID { fuzzExpect(RokuCommandPlanner.isAppID(id), "app id \(id)") }
}
