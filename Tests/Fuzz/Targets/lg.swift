import TVModel

// LG webOS: SSAP messages (LGMessage.decode) and what the driver reads from their payloads
// (power, volume, the foreground app, lists, MACs, the pointer socket's path).
@testable import Drivers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let message = try? LGMessage.decode(input.bytes) else { return 0 }
    _ = message.description  // logged for ignored messages
    _ = message.refusal
    let payload = message.payload
    var snapshot = TVSnapshot(reachable: true)
    LGReadings.power(payload, into: &snapshot)
    LGReadings.volume(payload, into: &snapshot)
    if let volume = snapshot.volume { fuzzExpect((0...100).contains(volume), "volume \(volume) out of range") }
    let apps = LGReadings.apps(payload) ?? []
    let inputs = LGReadings.inputs(payload) ?? []
    LGReadings.foreground(payload, apps: apps, inputs: inputs, into: &snapshot)
    LGReadings.channel(payload, into: &snapshot)
    _ = LGReadings.channels(payload)
    _ = LGReadings.macs(payload)
    if let path = payload["socketPath"]?.stringValue,
        let url = try? LGConnection.checkedPointerURL(path, host: "127.0.0.1", secure: true)
    {
        fuzzExpect(url.host == "127.0.0.1", "a pointer socket on another host was accepted: \(url.host)")
    }
    return 0
}
