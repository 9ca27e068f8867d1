// Roku ECP answers: the device-info, apps, active-app, media-player, tv-channels and
// tv-active-channel parsers of the driver (on top of XMLReader). Each input goes to all six,
// since fixtures of one are near-misses for the others.
@testable import Drivers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRokuECP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if let info = try? RokuDeviceInfo.parse(input.bytes) {
        // Identities become MQTT topics and entity ids: never empty.
        fuzzExpect(!info.serialNumber.isEmpty && !info.udn.isEmpty, "empty identity in \(info)")
    }
    _ = try? RokuApp.parseList(input.bytes)
    _ = try? RokuActiveApp.parse(input.bytes)
    if let player = try? RokuMediaPlayer.parse(input.bytes) {
        // Positions are published as numbers: NaN or infinity would break the JSON.
        fuzzExpect(player.position?.isFinite ?? true, "position \(String(describing: player.position))")
        fuzzExpect(player.duration?.isFinite ?? true, "duration \(String(describing: player.duration))")
    }
    if let channels = try? RokuChannelList.parse(input.bytes) {
        // Select options: bounded, each a tunable number.
        fuzzExpect(channels.count <= RokuChannelList.maxChannels, "\(channels.count) channels")
        fuzzExpect(channels.allSatisfy { RokuTVChannel.isChannelNumber($0.number) }, "channel numbers \(channels)")
    }
    if let active = try? RokuActiveChannel.parse(input.bytes), let channel = active.channel {
        fuzzExpect(RokuTVChannel.isChannelNumber(channel.number), "active channel \(channel.number)")
    }
    return 0
}
