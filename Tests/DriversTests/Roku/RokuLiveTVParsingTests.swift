import Drivers
import TVModel
import TestSupport
import Testing
import Wire

/// The answers issue 15 reads (tv-active-channel, tv-channels, media-player of a live stream,
/// device-info of Roku OS 15), from the captures in Tests/Fixtures/roku, and broken ones.
@Suite("Roku live TV answers", .cpuBound)
struct RokuLiveTVParsingTests {
    @Test("tv-active-channel (Roku's documented answer): channel 14.3 getTV, program Airwolf with its description")
    func activeChannel() throws {
        let active = try RokuActiveChannel.parse(RokuFixtures.bytes("tv-active-channel-gettv.xml"))
        #expect(active.channel == RokuTVChannel(number: "14.3", name: "getTV"))
        #expect(active.programTitle == "Airwolf")
        #expect(active.programDescription?.hasPrefix("The team will travel") == true)
        var snapshot = TVSnapshot(reachable: true, power: true)
        active.apply(to: &snapshot, list: [])
        #expect(snapshot.channel == "14.3 getTV")
        #expect(snapshot.channelNumber == "14.3")
        #expect(snapshot.channelName == "getTV")
        #expect(snapshot.mediaTitle == "Airwolf")
        // The list's label wins, so the select's state is one of its options.
        active.apply(to: &snapshot, list: [RokuTVChannel(number: "14.3", name: "getTV HD")])
        #expect(snapshot.channel == "14.3 getTV HD")
    }

    @Test("a tuner without a channel (searching, or no channel element) is no channel, not an error")
    func noActiveChannel() throws {
        for text in [
            "<tv-channel/>", "<tv-channel><channel></channel></tv-channel>",
            "<tv-channel><channel><number>../x</number></channel></tv-channel>",
        ] {
            let active = try RokuActiveChannel.parse(Array(text.utf8))
            #expect(active.channel == nil, "\(text)")
            var snapshot = TVSnapshot(reachable: true)
            snapshot.channel = "stale"
            snapshot.mediaTitle = "stale"
            active.apply(to: &snapshot, list: [])
            #expect(snapshot.channel == nil && snapshot.mediaTitle == nil, "\(text)")
        }
    }

    @Test("tv-channels: the documented two, python-rokuecp's single, and the empty list")
    func channelLists() throws {
        let docs = try RokuChannelList.parse(RokuFixtures.bytes("tv-channels-docs.xml"))
        #expect(docs.map(\.label) == ["1.1 WhatsOn", "1.3 QVC"])
        let single = try RokuChannelList.parse(RokuFixtures.bytes("tv-channels-single.xml"))
        #expect(single == [RokuTVChannel(number: "1.1", name: "WhatsOn")])
        let empty = try RokuChannelList.parse(RokuFixtures.bytes("tv-channels-empty.xml"))
        #expect(empty.isEmpty)
    }

    @Test("a command names a channel by number, label or unique name; anything else is nil")
    func resolve() {
        let list = [
            RokuTVChannel(number: "7.1", name: "KQED"), RokuTVChannel(number: "7.2", name: "KQED+"),
            RokuTVChannel(number: "9.1", name: "KQED"),
        ]
        #expect(RokuChannelList.resolve("7.1", in: list)?.number == "7.1")
        #expect(RokuChannelList.resolve("7.2 KQED+", in: list)?.number == "7.2")
        #expect(RokuChannelList.resolve(" 7.2 ", in: list)?.number == "7.2")
        #expect(RokuChannelList.resolve("kqed+", in: list)?.number == "7.2")
        #expect(RokuChannelList.resolve("KQED", in: list) == nil)  // two channels have that name
        #expect(RokuChannelList.resolve("99.9", in: list) == nil)
    }

    @Test("hidden channels are not options; more than 500 channels are cut to 500; duplicates kept once")
    func boundedList() throws {
        var xml = "<tv-channels>"
        for index in 0..<700 { xml += "<channel><number>\(index).1</number><name>C\(index)</name></channel>" }
        xml += "<channel><number>1.1</number><name>again</name></channel></tv-channels>"
        let channels = try RokuChannelList.parse(Array(xml.utf8))
        #expect(channels.count == RokuChannelList.maxChannels)
        #expect(Set(channels.map(\.number)).count == channels.count)
        let hidden = try RokuChannelList.parse(
            Array(
                "<tv-channels><channel><number>2.1</number><user-hidden>true</user-hidden></channel><channel><number>2.2</number></channel></tv-channels>"
                    .utf8))
        #expect(RokuChannelList.options(hidden) == ["2.2"])
    }

    @Test("an answer over 512 KiB is refused")
    func oversized() {
        let padding = String(repeating: "<channel><number>1.1</number></channel>", count: 14_000)
        let bytes = Array(("<tv-channels>" + padding + "</tv-channels>").utf8)
        #expect(bytes.count > 512 * 1024)
        let error = #expect(throws: DriverError.self) { try RokuChannelList.parse(bytes) }
        #expect(error?.kind == .badResponse)
    }

    @Test(
        "truncated, malformed or wrong-root answers are a badResponse, never a crash",
        arguments: [
            "", "<tv-channels>", "<tv-channels><channel><number>1.1</number>", "<tv-channel>", "<player/>",
            "<tv-channel><channel></tv-channel></channel>", "\u{0}<x/>",
        ])
    func malformed(text: String) {
        let bytes = Array(text.utf8)
        let list = #expect(throws: DriverError.self) { try RokuChannelList.parse(bytes) }
        #expect(list?.kind == .badResponse)
        let active = #expect(throws: DriverError.self) { try RokuActiveChannel.parse(bytes) }
        #expect(active?.kind == .badResponse)
    }

    @Test("every prefix of the new captures before the root closes is refused by its parser")
    func truncatedCaptures() throws {
        for name in ["tv-active-channel-gettv.xml", "tv-channels-docs.xml", "tv-channels-single.xml"] {
            let bytes = RokuFixtures.bytes(name)
            let rootClosed = try #require(bytes.lastIndex(of: UInt8(ascii: ">")))
            for end in 0...rootClosed {
                let cut = Array(bytes[..<end])
                #expect((try? RokuChannelList.parse(cut)) == nil, "\(name) cut at \(end)")
                #expect((try? RokuActiveChannel.parse(cut)) == nil, "\(name) cut at \(end)")
            }
        }
    }

    @Test("Pluto TV live (is_live true): no duration and no position, whatever the player says")
    func liveStream() throws {
        let player = try RokuMediaPlayer.parse(RokuFixtures.bytes("media-player-pluto-live.xml"))
        #expect(player.isLive == true)
        #expect(player.mediaState == .playing)
        #expect(player.duration == nil)
        #expect(player.position == nil)
        let video = try RokuMediaPlayer.parse(RokuFixtures.bytes("media-player-pluto-play.xml"))
        #expect(video.isLive == false)
        #expect(video.duration != nil)
    }

    /// HTTP and ECP-2 read a 0 ms duration the same way: as none.
    @Test("a 0 ms duration is no duration over HTTP, as over ECP-2")
    func zeroDuration() throws {
        let xml =
            "<player error=\"false\" state=\"play\"><position>5000 ms</position><duration>0 ms</duration></player>"
        let player = try RokuMediaPlayer.parse(Array(xml.utf8))
        #expect(player.duration == nil)
        #expect(player.position == 5)
        var snapshot = TVSnapshot(reachable: true, power: true)
        let notify = ECP2Message.notify(
            "media-player-state-changed",
            [
                "param-media-player-state": "play", "param-media-player-position": "5000 ms",
                "param-media-player-duration": "0 ms",
            ])
        _ = RokuECP2Events.apply(notify, to: &snapshot, apps: [])
        #expect(snapshot.duration == player.duration)
        #expect(snapshot.position == player.position)
    }

    @Test("device-info: find-remote of the stick capture; ecp-setting-mode and CEC flags of the OS 15 one")
    func capabilities() throws {
        let stick = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-stick.xml"))
        #expect(stick.supportsFindRemote == true)
        #expect(stick.ecpSettingMode == nil)
        let stickCapabilities = RokuDescriptionBuilder.capabilities(stick, apps: [])
        #expect(stickCapabilities.findRemoteKey == "FindRemote")
        // The sensor the Home Assistant golden files were made with (HomeAssistantTests' Samples).
        let sensor = DiagnosticSensor(
            key: "ecp_setting_mode", name: "Control by mobile apps", icon: "mdi:cellphone-link")
        #expect(stickCapabilities.diagnosticSensors == [sensor] && Vendor.roku.diagnosticSensors == [sensor])
        #expect(Vendor.roku.findRemoteKey == "FindRemote")
        let os15 = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-stick-os15-derived.xml"))
        #expect(os15.ecpSettingMode == "limited")
        #expect(RokuECPSettingMode.impliesLimited(os15.ecpSettingMode) == true)
        #expect(os15.supportsTVPowerControl == true)
        // Kept: a player gets no power switch (Sources/Drivers/Roku/README.md, power on streaming players).
        #expect(RokuDescriptionBuilder.capabilities(os15, apps: []).power == false)
        let tv = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-7820x.xml"))
        #expect(
            (RokuDescriptionBuilder.capabilities(tv, apps: []).findRemoteKey != nil) == (tv.supportsFindRemote == true))
        for (mode, limited) in [("Limited", true), ("enabled", false), ("permissive", false), ("default", nil)] {
            let xml =
                "<device-info><udn>u</udn><serial-number>S</serial-number><ecp-setting-mode>\(mode)</ecp-setting-mode></device-info>"
            let info = try RokuDeviceInfo.parse(Array(xml.utf8))
            #expect(RokuECPSettingMode.impliesLimited(info.ecpSettingMode) == limited, "\(mode)")
        }
        let odd =
            "<device-info><udn>u</udn><serial-number>S</serial-number><ecp-setting-mode>a b</ecp-setting-mode></device-info>"
        #expect(try RokuDeviceInfo.parse(Array(odd.utf8)).ecpSettingMode == nil)
    }
}

@Suite("Roku channel commands are planned", .cpuBound)
struct RokuChannelPlanTests {
    static let tuner = TVCapabilities(power: true, channels: true)

    @Test(
        "a known channel becomes launch tvinput.dtv with ch; no tuner, no list, an empty list or an unknown channel are refused"
    )
    func plan() throws {
        let list = [RokuTVChannel(number: "7.1", name: "KQED")]
        let planner = RokuCommandPlanner(capabilities: Self.tuner, apps: [], channels: list)
        #expect(try planner.plan(.channel("7.1 KQED")) == .tune(channel: "7.1"))
        let refusals: [(RokuCommandPlanner, String)] = [
            (RokuCommandPlanner(capabilities: TVCapabilities(), apps: [], channels: list), "no TV tuner"),
            (RokuCommandPlanner(capabilities: Self.tuner, apps: [], channels: nil), "not known yet"),
            (RokuCommandPlanner(capabilities: Self.tuner, apps: [], channels: []), "channel scan"),
            (planner, "unknown channel '9.1'"),
        ]
        for (refusing, reason) in refusals {
            let error = #expect(throws: CommandRejection.self) { try refusing.plan(.channel("9.1")) }
            #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
        }
    }
}
