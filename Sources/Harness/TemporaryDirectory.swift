import FoundationEssentials
import Glibc

/// A fresh directory made with `mkdtemp` (mode 0700), removed with everything in it by `remove()`
/// or, at the latest, when the object goes away.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// `$TMPDIR` when set, else `/tmp`.
    public static var systemTemporaryPath: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return "/tmp" }
        return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
    }

    /// Creates `<tmp>/<prefix>-XXXXXX`.
    public init(prefix: String = "harness") throws(HarnessError) {
        var template = Array("\(Self.systemTemporaryPath)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .systemCall("mkdtemp", errno: errno) }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { remove() }

    /// `existing` when given, else a new directory.
    static func reuse(_ existing: TemporaryDirectory?, prefix: String) throws(HarnessError) -> TemporaryDirectory {
        if let existing { return existing }
        return try TemporaryDirectory(prefix: prefix)
    }

    /// The path of `name` inside the directory (the file is not created).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory and its contents; harmless when already gone.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
