import Harness

/// The captured device answers in Tests/Fixtures (its README says where each came from), found
/// from this file's place, so a test file can move to another folder and still find them.
public enum TestFixtures {
    /// `Tests/`, the folder above Tests/TestSupport.
    public static let testsDirectory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The repository's root, above `Tests/`.
    public static let repositoryDirectory = String(testsDirectory[..<testsDirectory.lastIndex(of: "/")!])

    /// `Tests/Fixtures`.
    public static let directory = testsDirectory + "/Fixtures"

    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "no fixture at \(path)" }
    }

    /// The bytes of `Tests/Fixtures/<relativePath>`, exactly as stored.
    public static func bytes(_ relativePath: String) throws(Missing) -> [UInt8] {
        let path = directory + "/" + relativePath
        guard let bytes = FileText.bytes(path) else { throw Missing(path: path) }
        return bytes
    }

    public static func text(_ relativePath: String) throws(Missing) -> String {
        String(decoding: try bytes(relativePath), as: UTF8.self)
    }
}
