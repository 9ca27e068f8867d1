import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

@Suite("Value templates and settings", .cpuBound)
struct ValueTemplateTests {
    @Test(
        "String literals escape what Jinja or a reader could misread and keep everything else",
        arguments: [
            ("Netflix", "'Netflix'"),
            ("it's", "'it\\x27s'"),
            ("a\\b", "'a\\x5cb'"),
            ("{{ x }}", "'\\x7b\\x7b x \\x7d\\x7d'"),
            ("100%", "'100\\x25'"),
            ("tab\there\n", "'tab\\x09here\\x0a'"),
            ("MLB.TV®", "'MLB.TV®'"),
            ("😀", "'😀'"),
            ("", "''"),
        ])
    func stringLiterals(text: String, literal: String) throws {
        #expect(ValueTemplate.stringLiteral(text) == literal)
        #expect(try JinjaLiteral.decodeList("[" + literal + "]") == [text])
    }

    @Test("Each reading compiles to a template that tests before it reads and falls back to None")
    func templates() {
        #expect(
            ValueTemplate.make(.text("app"))
                == "{{ value_json.app[:255] if value_json is mapping and value_json.app is string else 'None' }}")
        #expect(
            ValueTemplate.make(.onOff("muted"))
                == "{{ ('ON' if value_json.muted else 'OFF') if value_json is mapping and value_json.muted is boolean else 'None' }}"
        )
        #expect(
            ValueTemplate.make(.number("volume"))
                == "{{ value_json.volume if value_json is mapping and value_json.volume is number and value_json.volume is not boolean else 'None' }}"
        )
        #expect(
            ValueTemplate.make(.option("input", .inputs), options: ["HDMI1", "it's"])
                == "{{ value_json.input if value_json is mapping and value_json.input in ['HDMI1','it\\x27s'] else 'None' }}"
        )
        #expect(ValueTemplate.make(.payload(on: "online", off: "offline")) == nil)
        // Entity style's sensors (Home Assistant before 2024.10 shows a rendered None as text).
        #expect(
            ValueTemplate.make(.text("app"), unknown: ValueTemplate.unknownState)
                == "{{ value_json.app[:255] if value_json is mapping and value_json.app is string else 'unknown' }}")
    }

    @Test("Every row of the tables is well formed")
    func tables() {
        for row in EntityTable.tv + EntityTable.bridge {
            let iconIsMDI = row.icon.map { $0.hasPrefix("mdi:") }
            #expect(iconIsMDI ?? true)
            #expect((row.name == nil) == (row.key == "power"))
            #expect(row.platform != .sensor || row.category != .config, "sensors may only be diagnostic")
            switch row.platform {
            case .button:
                let pressesForTV: Bool
                if case .bridgeRequestForTV = row.command { pressesForTV = true } else { pressesForTV = false }
                let pressed = row.payloadPress != nil || row.pressFromCapabilities != nil || pressesForTV
                #expect(row.command != nil && pressed && row.stateTopic == nil)
            case .sensor, .binarySensor: #expect(row.command == nil && row.stateTopic != nil && row.reading != nil)
            case .switch, .select, .number: #expect(row.command != nil && row.stateTopic != nil && row.reading != nil)
            case .text: #expect(row.command != nil && (row.stateTopic == nil || row.reading == .cleared))
            case .image: #expect(row.command == nil && row.stateTopic == .tvAppIcon && row.reading == nil)
            case .notify: #expect(row.command != nil && row.stateTopic == nil && row.reading == nil)
            case .event: #expect(row.command == nil && row.stateTopic == .tvEvent && row.extra["event_types"] != nil)
            case .deviceAutomation: Issue.record("\(row.key): triggers are DeviceTrigger values, not rows")
            }
            if row.platform == .select, case .option = row.reading {
            } else if row.platform == .select {
                Issue.record("\(row.key): a select must read an option")
            }
        }
        let keys = (EntityTable.tv + EntityTable.bridge).map(\.key)
        #expect(Set(EntityTable.tv.map(\.key)).count == EntityTable.tv.count)
        // 33, issue 15's channel, current_channel, media_title, find_remote, app_icon; issue 17's
        // event, pair (add_tv and add_tv_host are the bridge's). Drivers' diagnostic sensors
        // and controls (the Frame's art_mode, issue 16) are rows made from capabilities, not
        // table rows. Also screen, sound_output and toast; issue 39's pairing_code.
        #expect(keys.count == 46)
    }

    @Test("The bridge id and name carry the base topic, reduced to an id")
    func bridgeIdentity() throws {
        let standard = DiscoverySettings(version: "2.0.0")
        #expect(standard.bridgeID == "tv2mqtt_bridge_tv2mqtt")
        let office = DiscoverySettings(baseTopic: "Office/TVs", version: "2.0.0")
        #expect(office.instanceName == "office_tvs")
        #expect(office.bridgeID == "tv2mqtt_bridge_office_tvs")
        let payload = try JSONParser.parse(DiscoveryBuilder.bridgeMessages(settings: office)[0].payload)
        #expect(payload["device"]?["name"] == "tv2mqtt bridge (Office/TVs)")
        #expect(payload["components"]?["discover"]?["command_topic"] == "Office/TVs/bridge/request/discover")
        #expect(payload["components"]?["version"]?["default_entity_id"] == "sensor.office_tvs_bridge_version")
        #expect(payload["origin"] == ["name": "tv2mqtt", "sw_version": "2.0.0"])
    }

    @Test("Absent identity facts are left out of the device block, not sent empty")
    func sparseDevice() throws {
        let identity = TVIdentity(
            id: TVID("samsung_x")!, kind: .samsung, name: "", manufacturer: "Samsung", model: "", host: "192.0.2.9",
            port: 8001)
        let message = DiscoveryBuilder.messages(
            for: identity, capabilities: TVCapabilities(), settings: Samples.settings(.device))[0]
        let device = try JSONParser.parse(message.payload)["device"]
        #expect(
            device == [
                "identifiers": ["tv2mqtt_samsung_x"], "name": "samsung_x", "manufacturer": "Samsung",
                "via_device": "tv2mqtt_bridge_tv2mqtt",
            ])
    }
}
