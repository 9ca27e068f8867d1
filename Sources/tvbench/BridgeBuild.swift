import Glibc

/// Which tv2mqtt the benchmark runs, and whether it is the build users install.
///
/// The README installs `swift build -c release --static-swift-stdlib --product tv2mqtt`: the
/// Swift runtime linked in. A plain `swift build -c release` links it as shared libraries,
/// which the process maps and partly touches: a couple of MB more resident memory. The
/// memory targets are about the installed build, so the report says which one it measured.
enum BridgeBuild {
    /// The executable `BridgeProcess.start` runs.
    static func executable() throws -> String {
        if let override = getenv("TVBENCH_BRIDGE").map({ String(cString: $0) }) { return override }
        return try Products.path("tv2mqtt")
    }

    /// "static" when the Swift runtime is linked in, "shared" when the executable names
    /// libswiftCore.so (a DT_NEEDED string), nil when it cannot be read.
    static func swiftRuntime(of path: String) -> String? {
        file(path, contains: "libswiftCore.so").map { $0 ? "shared" : "static" }
    }

    /// Whether the file at `path` holds `text` anywhere; nil when it cannot be read.
    static func file(_ path: String, contains text: String) -> Bool? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let needle = Array(text.utf8)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var carry: [UInt8] = []
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { return false }
            // The needle may straddle two chunks: keep the tail of the previous one.
            let window = carry + chunk[0..<count]
            if contains(window, needle) { return true }
            carry = Array(window.suffix(needle.count - 1))
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                var index = 1
                while index < needle.count && bytes[start + index] == needle[index] { index += 1 }
                if index == needle.count { return true }
            }
            return false
        }
    }

    /// One line for the report: the executable and its kind.
    static func summary() -> String {
        guard let path = try? executable() else { return "tv2mqtt not built" }
        return "\(path) (\(kind(of: path)))"
    }

    /// Which kind of build `path` is, with a warning when it is not the installed kind.
    static func kind(of path: String) -> String {
        if BridgeBuild.file(path, contains: TraceBuild.marker) == true {
            return "a TV2MQTT_TRACE build: it stamps every command; not the installed build"
        }
        switch swiftRuntime(of: path) {
        case "static": return "static Swift runtime, as installed"
        case "shared":
            return "SHARED Swift runtime: not the installed build; memory reads ~2 MB high;"
                + " build it with swift build -c release --static-swift-stdlib --product tv2mqtt"
        default: return "unreadable"
        }
    }
}
