import TVModel

// The Frame's art channel: every text frame the TV sends goes to SamsungArtEvent.decode, its
// payload to a SamsungArtLedger, and an art mode it yields is merged into a snapshot
// (SamsungArt.merge), which is what the bridge publishes.
@testable import Drivers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamsungArt(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let event = try? SamsungArtEvent.decode(input.bytes) else { return 0 }
    // Logged at debug level: bounded whatever the TV sent.
    fuzzExpect(event.description.count <= 160, "description of \(event.description.count) characters")
    guard case .message(let payload, _) = event else { return 0 }
    // As the answer to a status request of ours, or as a broadcast: what the ledger makes of it.
    var ledger = SamsungArtLedger()
    ledger.sent(.getArtMode(id: payload.requestID ?? "x"), now: .now)
    for case .changed(let on) in ledger.receive(payload) {
        let merged = SamsungArt.merge(
            TVSnapshot(reachable: true, power: true, powerMode: "on"), artMode: on, frameTV: true)
        fuzzExpect(merged.artMode == on, "art mode lost in the merge")
        fuzzExpect(merged.power == !on, "power must be OFF exactly while art shows")
    }
    return 0
}
