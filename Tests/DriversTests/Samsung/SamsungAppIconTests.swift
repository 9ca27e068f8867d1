import Drivers
import TVModel
import TestSupport
import Testing
import Wire

/// `ed.apps.icon` (samsungtvws `App.icon`): the request tv2mqtt sends and the reply it reads.
@Suite("Samsung app icons", .cpuBound)
struct SamsungAppIconTests {
    static let path = "/opt/share/webappservice/apps_icon/FirstScreen/111299001912/250x250.png"

    @Test("the request: ms.channel.emit of ed.apps.icon to the host with the iconPath")
    func request() throws {
        let sent = try JSONParser.parse(SamsungRemoteMessage.appIcon(path: Self.path).text)
        #expect(sent["method"] == "ms.channel.emit")
        #expect(sent["params"]?["event"] == "ed.apps.icon" && sent["params"]?["to"] == "host")
        #expect(sent["params"]?["data"]?["iconPath"] == .string(Self.path))
    }

    @Test("fixture ed.apps.icon: the path and a base64 PNG; the installed list gives the icon paths")
    func reply() throws {
        let event = try SamsungEvent.decode(TestFixtures.bytes("samsung/event_ed_apps_icon.json"))
        guard case .appIcon(let path, let image) = event else {
            Issue.record("decoded as \(event)")
            return
        }
        #expect(path == Self.path)
        let bytes = try Base64.decode(try #require(image))
        #expect(AppIcon.decode(bytes, declaredType: nil)?.contentType == "image/png")
        let list = try SamsungEvent.decode(TestFixtures.bytes("samsung/event_ed_installedApp_get.json"))
        guard case .installedApps(let apps) = list else {
            Issue.record("decoded as \(list)")
            return
        }
        #expect(apps.first?.iconPath == Self.path)
    }

    @Test("malformed, truncated and byte-at-a-time replies: refused or without a picture, never a crash")
    func malformed() throws {
        let noPicture = try SamsungEvent.decode(Array(#"{"event":"ed.apps.icon","data":{"iconPath":"/x"}}"#.utf8))
        #expect(noPicture == .appIcon(path: "/x", imageBase64: nil))
        let notObject = try SamsungEvent.decode(Array(#"{"event":"ed.apps.icon","data":"oops"}"#.utf8))
        #expect(notObject == .appIcon(path: nil, imageBase64: nil))
        // The file ends with a newline: without it, it is the whole object, no prefix.
        let whole = Array(try TestFixtures.bytes("samsung/event_ed_apps_icon.json").dropLast())
        var decodedPrefixes = 0
        for length in 0..<whole.count where (try? SamsungEvent.decode(Array(whole.prefix(length)))) != nil {
            decodedPrefixes += 1
        }
        #expect(decodedPrefixes == 0, "a truncated reply is not JSON")
    }
}
