import Glibc

/// Reads files from Tests/Fixtures, found relative to this source file (two folders up:
/// Tests/DriversTests/Samsung → Tests). A copy of WireTests' helper under its own name, so
/// it cannot clash with another helper in this target.
enum SamsungFixtureFiles {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { return "Tests/Fixtures" }
            path = String(path[..<slash])
        }
        return path + "/Fixtures"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        let fd = open(directory + "/" + name, O_RDONLY)
        guard fd >= 0 else { throw Missing(name: name) }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    struct Missing: Error { let name: String }
}

/// `text` as bytes, for decoders that take bytes.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
