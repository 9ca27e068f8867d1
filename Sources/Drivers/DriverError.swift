import TVModel

/// Why a driver could not reach a TV or carry a command out. Its `description` is what the
/// user reads in a `command_failed` event and the log.
public struct DriverError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No connection: the TV is off, unplugged, or the address is wrong.
        case unreachable
        /// The TV accepted the connection but did not answer in time.
        case timeout
        /// Roku "Limited mode": ECP commands refused with HTTP 403.
        case limitedMode
        /// A TV that pairs (Samsung, LG) has not approved us (or revoked the token), or a PIN
        /// was wrong.
        case unauthorized
        /// Pairing: the TV shows a PIN for the user to type back (`TVDriver.pair(pin:)`).
        case pinRequired
        /// The TV answered something we cannot understand.
        case badResponse
        /// The TV refused the request (an HTTP 4xx, an error event).
        case rejected
        /// The TV refused the request as not allowed (HTTP 403) without saying why: a setting
        /// on the TV may stand in the way (the driver knows which, and says so).
        case forbidden
        /// The TV cannot do this (no volume level on this Roku, no inputs on a stick…).
        case unsupported
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A command refused before anything was sent: an unknown key, an app the TV does not have,
/// a value out of range. Its `message` says why.
public struct CommandRejection: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension CommandRejection {
    /// A command no TV of this vendor can carry out (`screen`, `sound_output`, `toast` on a
    /// vendor without them): said the same way by every planner.
    public static func notSupported(_ command: TVCommand) -> CommandRejection {
        CommandRejection("\(command.name) is not supported by this TV")
    }
}

extension TVCommand {
    /// `checked()`, its refusal as a driver's: for callers that plan commands they built.
    public func checkedForPlanning() throws(CommandRejection) -> CheckedCommand {
        do {
            return try checked()
        } catch {
            throw CommandRejection(error.message)
        }
    }
}
