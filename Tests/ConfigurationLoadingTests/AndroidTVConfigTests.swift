import Configuration
import Drivers
import TVModel
import Testing

/// The `androidtv` section and the mDNS keys: what they read into, and refusals that name the key.
@Suite("Configuration: androidtv and discovery.mdns")
struct AndroidTVConfigTests {
    @Test("androidtv.apps replaces the list (a package becomes its market link); ime; mdns off and its address")
    func read() throws {
        let config = try loadConfig(
            file: #"""
                {"androidtv": {"apps": {"Kodi": "org.xbmc.kodi", "Plex": "plex://home"}, "ime": false},
                 "discovery": {"mdns": false, "mdns_address": "127.255.255.255:5354"}}
                """#)
        let settings = config.vendorSettings[AndroidTVSettings.self]
        #expect(
            settings.apps == [
                TVApp(id: "market://launch?id=org.xbmc.kodi", name: "Kodi"), TVApp(id: "plex://home", name: "Plex"),
            ])
        #expect(!settings.ime && !config.discovery.mdns)
        #expect(config.discovery.mdnsAddress == HostPort(host: "127.255.255.255", port: 5354))
        let mdnsOff = try loadConfig(["--no-mdns"])
        #expect(!mdnsOff.discovery.mdns)
    }

    @Test("an app that is no link nor package, a non-object apps and an unknown key are refused, naming them")
    func refused() {
        let cases: [(String, String)] = [
            (#"{"androidtv": {"apps": {"Bad": "not a link"}}}"#, "androidtv.apps.Bad: expected an app link"),
            (#"{"androidtv": {"apps": ["Netflix"]}}"#, "androidtv.apps: expected an object of name: app link"),
            (#"{"androidtv": {"imee": true}}"#, "androidtv.imee"),
            (#"{"discovery": {"mdns": [true]}}"#, "discovery.mdns"),
        ]
        for (file, expected) in cases {
            let error = configError(file: file)
            #expect(error?.contains(expected) == true, "\(file): \(String(describing: error))")
        }
    }
}
