import Glibc

/// The captured Roku answers in Tests/Fixtures/roku (two folders up from this file).
enum RokuFixtures {
    static func bytes(_ name: String, file: String = #filePath) -> [UInt8] {
        var directory = file
        while let last = directory.last, last != "/" { directory.removeLast() }
        let path = directory + "../../Fixtures/roku/" + name
        guard let handle = fopen(path, "rb") else { return [] }
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
}
