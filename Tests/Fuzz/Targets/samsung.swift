// Samsung: remote-channel WebSocket messages (SamsungEvent.decode), the REST device info
// (SamsungDeviceInfo.parse) and the UPnP answers (device description, RenderingControl SOAP).
// Each input goes to every decoder: the JSON ones and the XML ones share their seeds.
@testable import Drivers

private let actions: [UPnPRenderingAction] = [.getVolume, .setVolume(10), .getMute, .setMute(true)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamsung(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if let event = try? SamsungEvent.decode(input.bytes) {
        _ = event.description  // logged for every event
    }
    let info = try? SamsungDeviceInfo.parse(input.bytes)
    _ = SamsungPowerReading(info: info)
    _ = try? UPnPDeviceDescription.renderingControlPath(input.bytes)
    for action in actions {
        if case .volume(let volume)? = try? UPnPRenderingControl.parseResponse(input.bytes, for: action) {
            // Published as the volume entity's state (0…100).
            fuzzExpect((0...100).contains(volume), "volume \(volume) out of range")
        }
    }
    return 0
}
