import TestSupport

/// Reads the captured device responses in Tests/Fixtures for the HTTP and XML tests.
enum HTTPXMLFixtures {
    /// The Roku ECP XML captures, every one of them (Tests/Fixtures/README.md).
    static let rokuXML = [
        "active-app-netflix.xml", "active-app-screensaver.xml", "apps-tv.xml", "device-info-7820x.xml",
        "device-info-hisense-g218x.xml", "device-info-standby.xml", "media-player-close.xml",
        "media-player-pluto-play.xml",
        // Issue 15 (live TV, channels, live streams, capabilities).
        "tv-active-channel-gettv.xml", "tv-channels-docs.xml", "tv-channels-single.xml", "tv-channels-empty.xml",
        "media-player-pluto-live.xml", "device-info-stick.xml", "device-info-stick-os15-derived.xml",
    ]

    /// The bytes of `Tests/Fixtures/<relativePath>`, exactly as stored.
    static func bytes(_ relativePath: String) -> [UInt8] {
        do {
            return try TestFixtures.bytes(relativePath)
        } catch {
            fatalError("missing fixture: \(error)")
        }
    }

    static func roku(_ name: String) -> [UInt8] {
        bytes("roku/" + name)
    }
}
