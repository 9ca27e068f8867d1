import Glibc

/// Why a file operation failed, with the path and the system's reason.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let code: Int32
    /// Said instead of the system's text for the code, when the bridge itself refuses.
    public let reason: String?

    public init(path: String, operation: String, code: Int32, reason: String? = nil) {
        self.path = path
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    public var description: String { "cannot \(operation) \(path): \(reason ?? String(cString: strerror(code)))" }
}
