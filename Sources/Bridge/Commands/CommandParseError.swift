import Wire

/// Why a command message was refused; `message` is what the user reads.
public struct CommandParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let transaction: JSONValue?

    public var description: String { message }
}
