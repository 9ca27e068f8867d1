#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    static func bytes(_ relativePath: String, file: String = #filePath) -> [UInt8] {
        var directory = file
        while let last = directory.last, last != "/" { directory.removeLast() }
        let path = directory + "../Fixtures/" + relativePath
        guard let handle = fopen(path, "rb") else { fatalError("missing fixture \(path)") }
        defer { fclose(handle) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, handle)
            if count <= 0 { break }
            result += chunk[0..<count]
        }
        return result
    }

    static func roku(_ name: String) -> [UInt8] {
        bytes("roku/" + name)
    }
}
