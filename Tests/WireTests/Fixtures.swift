import Glibc

/// Reads files from Tests/Fixtures (found relative to this source file).
enum Fixtures {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        let fd = open(path(name), O_RDONLY)
        guard fd >= 0 else { throw FixtureError.missing(name) }
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

    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    enum FixtureError: Error { case missing(String) }
}
