/// A configuration mistake, named by the key, flag or environment variable that holds it.
/// The command line turns it into one line on standard error and exit code 2.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
