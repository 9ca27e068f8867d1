import Drivers
import TestSupport
import Testing
import Wire

@Suite("Samsung remote-channel messages and URL", .cpuBound)
struct SamsungRemoteMessageTests {
    @Test("key messages, byte for byte (keys sorted)")
    func keys() {
        #expect(
            SamsungRemoteMessage.key("KEY_VOLUP", .click).text
                == #"{"method":"ms.remote.control","params":{"Cmd":"Click","DataOfCmd":"KEY_VOLUP","Option":"false","TypeOfRemote":"SendRemoteKey"}}"#
        )
        #expect(
            SamsungRemoteMessage.key("KEY_POWER", .press).text
                == #"{"method":"ms.remote.control","params":{"Cmd":"Press","DataOfCmd":"KEY_POWER","Option":"false","TypeOfRemote":"SendRemoteKey"}}"#
        )
        #expect(
            SamsungRemoteMessage.key("KEY_POWER", .release).text
                == #"{"method":"ms.remote.control","params":{"Cmd":"Release","DataOfCmd":"KEY_POWER","Option":"false","TypeOfRemote":"SendRemoteKey"}}"#
        )
    }

    @Test("text: base64 of UTF-8, then SendInputEnd")
    func text() {
        #expect(
            SamsungRemoteMessage.text("héllo \"x\"").text
                == #"{"method":"ms.remote.control","params":{"Cmd":"aMOpbGxvICJ4Ig==","DataOfCmd":"base64","TypeOfRemote":"SendInputString"}}"#
        )
        #expect(
            SamsungRemoteMessage.textEnd.text
                == #"{"method":"ms.remote.control","params":{"TypeOfRemote":"SendInputEnd"}}"#)
    }

    @Test("app list request and app launch")
    func channelEmit() {
        #expect(
            SamsungRemoteMessage.installedApps.text
                == #"{"method":"ms.channel.emit","params":{"event":"ed.installedApp.get","to":"host"}}"#)
        #expect(
            SamsungRemoteMessage.launch(appID: "3201907018807", type: .deepLink, metaTag: "").text
                == #"{"method":"ms.channel.emit","params":{"data":{"action_type":"DEEP_LINK","appId":"3201907018807","metaTag":""},"event":"ed.apps.launch","to":"host"}}"#
        )
        #expect(
            SamsungRemoteMessage.launch(
                appID: "org.tizen.browser", type: .nativeLaunch, metaTag: "https://a.b/?q=1"
            ).text
                == #"{"method":"ms.channel.emit","params":{"data":{"action_type":"NATIVE_LAUNCH","appId":"org.tizen.browser","metaTag":"https://a.b/?q=1"},"event":"ed.apps.launch","to":"host"}}"#
        )
        #expect(SamsungRemoteMessage.LaunchType(appType: 2) == .deepLink)
        #expect(SamsungRemoteMessage.LaunchType(appType: 4) == .nativeLaunch)
    }

    @Test("outgoing messages parse back as JSON")
    func roundTrip() throws {
        let messages: [SamsungRemoteMessage] = [
            .key("KEY_HOME", .click), .text("a\u{0}b\n"), .textEnd, .installedApps,
            .launch(appID: "x\"y", type: .deepLink, metaTag: "m"),
        ]
        for message in messages { #expect(try JSONParser.parse(message.text) == message.json) }
    }

    @Test("plain URL: 8001, base64 name percent-encoded, never a token")
    func plainURL() {
        let endpoint = SamsungRemoteEndpoint.plain(host: "192.0.2.60", clientName: "tv2mqtt")
        #expect(
            endpoint.url.description
                == "ws://192.0.2.60:8001/api/v2/channels/samsung.remote.control?name=dHYybXF0dA%3D%3D")
        let withToken = SamsungRemoteEndpoint(
            host: "h", port: 8001, secure: false, clientName: "tv2mqtt", token: SamsungToken("1"))
        #expect(withToken.token == nil, "a token never goes over plain WebSocket")
    }

    @Test("secure URL: 8002 with the token; + / = in base64 are encoded")
    func secureURL() {
        let endpoint = SamsungRemoteEndpoint.secure(
            host: "192.0.2.60", clientName: "tv2mqtt", token: SamsungToken("12345678"))
        #expect(
            endpoint.url.description
                == "wss://192.0.2.60:8002/api/v2/channels/samsung.remote.control?name=dHYybXF0dA%3D%3D&token=12345678"
        )
        #expect(
            endpoint.description
                == "wss://192.0.2.60:8002/api/v2/channels/samsung.remote.control?name=dHYybXF0dA%3D%3D&token=<redacted>"
        )
        // "??>" encodes to "Pz8+", "???" to "Pz8/": both special characters appear.
        let odd = SamsungRemoteEndpoint.secure(host: "h", clientName: "??>???", token: nil)
        #expect(odd.query == "name=Pz8%2BPz8%2F")
        #expect(
            SamsungRemoteEndpoint.secure(host: "::1", clientName: "a", token: nil).url.hostHeader
                == "[::1]:8002")
    }
}
