import Glibc

/// Where `swift build` put this package's executables: beside the running test bundle
/// (`.build/<triple>/debug/`), whichever configuration the tests were built in.
public enum BuiltProducts {
    public static let directory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }()

    /// The path of an executable product, e.g. `tv2mqtt` or `tvsim`.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
