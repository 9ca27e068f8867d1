import HomeAssistant
import MQTTInterface
import TVModel
import TestSupport
import Testing
import Wire

@Suite("The channel select's discovery", .cpuBound)
struct ChannelSelectDiscoveryTests {
    @Test(
        "500 channels (the limit) give a select with every option and a device config under 64 KiB; awkward names are safe in the template"
    )
    func largeList() throws {
        var capabilities = TVCapabilities(power: true, limitedMode: true, channels: true)
        capabilities.channelInfo = true
        capabilities.channelList = (0..<500).map { "\($0).1 Channel {{ \($0) }} 'it's'" }
        let identity = TVIdentity(
            id: TVID("den")!, kind: .roku, name: "Den", manufacturer: "Roku", host: "127.0.0.2", port: 8060)
        let messages = DiscoveryBuilder.messages(
            for: identity, capabilities: capabilities, settings: DiscoverySettings(version: "1"))
        let message = try #require(messages.first)
        #expect(message.payload.utf8.count < 64 * 1024, "\(message.payload.utf8.count) bytes")
        let config = try JSONParser.parse(Array(message.payload.utf8))
        let select = try #require(config["components"]?["channel"])
        #expect(select["options"]?.arrayValue?.count == 500)
        #expect(select["command_topic"] == "tv2mqtt/den/set/channel")
        let template = try #require(select["value_template"]?.stringValue)
        #expect(template.contains("value_json.channel in ["))
        #expect(!template.dropFirst(2).dropLast(2).contains("{{"), "an option broke out of the template")
        // A Samsung never gets the channel rows (it has channel keys but reports no channel).
        var samsung = identity
        samsung.kind = .samsung
        capabilities.channelInfo = false
        capabilities.limitedMode = false
        let samsungConfig = try JSONParser.parse(
            Array(
                try #require(
                    DiscoveryBuilder.messages(
                        for: samsung, capabilities: capabilities, settings: Samples.settings
                    ).first
                ).payload.utf8))
        for key in ["channel", "current_channel", "media_title", "ecp_setting_mode"] {
            #expect(samsungConfig["components"]?[key]?.objectValue?.keys.sorted() == ["platform"], "\(key)")
        }
    }
}
