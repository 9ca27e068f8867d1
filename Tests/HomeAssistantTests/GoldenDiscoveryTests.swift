import Glibc
import Harness
import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

/// The exact configs for five real TVs and the bridge, in both discovery styles, compared with
/// reviewed files in Golden/. To rewrite them after a deliberate change, run
/// `TV2MQTT_UPDATE_GOLDEN=1 swift test --filter GoldenDiscoveryTests`, then review the diff
/// and run `Golden/validate.py` (see its header).
@Suite("Golden discovery payloads", .cpuBound)
struct GoldenDiscoveryTests {
    enum Sample: String, CaseIterable {
        case rokuTV = "roku-tv"
        case rokuStick = "roku-stick"
        case samsungTV = "samsung-tv"
        case lgTV = "lg-tv"
        case androidTV = "androidtv-tv"
        case bridge

        func messages(_ settings: DiscoverySettings) throws -> [DiscoveryMessage] {
            switch self {
            case .rokuTV:
                let (identity, capabilities) = try Samples.rokuTV()
                return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
            case .rokuStick:
                let (identity, capabilities) = try Samples.rokuStick()
                return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
            case .samsungTV:
                let (identity, capabilities) = try Samples.samsungTV()
                return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
            case .lgTV:
                let (identity, capabilities) = Samples.lgTV()
                return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
            case .androidTV:
                let (identity, capabilities) = Samples.androidTV()
                return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
            case .bridge:
                return DiscoveryBuilder.bridgeMessages(settings: settings)
            }
        }
    }

    static let cases: [(Sample, DiscoverySettings.Style)] = Sample.allCases.flatMap { sample in
        DiscoverySettings.Style.allCases.map { (sample, $0) }
    }

    @Test("Configs match the reviewed golden files byte for byte", arguments: cases)
    func matchesGolden(sample: Sample, style: DiscoverySettings.Style) throws {
        let messages = try sample.messages(Samples.settings(style))
        let actual = try PrettyJSON.golden(messages)
        let path = Golden.directory + "/\(sample.rawValue)-\(style.rawValue).json"
        if getenv("TV2MQTT_UPDATE_GOLDEN") != nil {
            try FileText.write(actual, to: path)
        }
        let expected = try #require(FileText.read(path), "no golden file \(path)")
        #expect(actual == expected, "\(path) differs; rerun with TV2MQTT_UPDATE_GOLDEN=1 and review the diff")
        // The golden files hold parsed payloads; the wire payload is their compact sorted-key form.
        for message in messages where !message.isClear {
            #expect(try JSONParser.parse(message.payload).serialized() == message.payload)
        }
    }

    @Test("Device style sends one config per device on <prefix>/device/<node>/config")
    func deviceStyleTopics() throws {
        let (identity, capabilities) = try Samples.rokuTV()
        let messages = DiscoveryBuilder.messages(
            for: identity, capabilities: capabilities, settings: Samples.settings(.device))
        #expect(messages.map(\.topic) == ["homeassistant/device/roku_yn00h5555555/config"])
        #expect(
            DiscoveryBuilder.bridgeMessages(settings: Samples.settings(.device)).map(\.topic) == [
                "homeassistant/device/tv2mqtt_bridge_tv2mqtt/config"
            ])
    }

    @Test("Entity style sends one config per entity on <prefix>/<platform>/<node>/<key>/config")
    func entityStyleTopics() throws {
        let (identity, capabilities) = try Samples.rokuStick()
        let topics = DiscoveryBuilder.messages(
            for: identity, capabilities: capabilities, settings: Samples.settings(.entity)
        ).map(\.topic)
        #expect(topics.first == "homeassistant/select/roku_1gu48t017973/app/config")
        #expect(topics.contains("homeassistant/button/roku_1gu48t017973/home/config"))
        #expect(topics.contains("homeassistant/binary_sensor/roku_1gu48t017973/limited_mode/config"))
        let hasTVOnlyEntity = topics.contains {
            $0.contains("/power/") || $0.contains("/volume") || $0.contains("/input/")
        }
        #expect(!hasTVOnlyEntity)
    }

    @Test("The Roku TV's app select offers the fixture's apps and its inputs select the tvin inputs")
    func rokuOptionsComeFromTheFixture() throws {
        let (identity, capabilities) = try Samples.rokuTV()
        let payload = try JSONParser.parse(
            DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: Samples.settings(.device))[0]
                .payload)
        let apps = payload["components"]?["app"]?["options"]?.arrayValue?.compactMap(\.stringValue)
        let inputs = payload["components"]?["input"]?["options"]?.arrayValue?.compactMap(\.stringValue)
        #expect(
            apps == [
                "Roku Channel Store", "Netflix", "Amazon Video on Demand", "MLB.TV®", "Free FrameChannel Service",
                "Mediafly", "Pandora",
            ])
        #expect(inputs == ["Satellite TV", "Blu-ray player", "Antenna TV"])
    }
}
