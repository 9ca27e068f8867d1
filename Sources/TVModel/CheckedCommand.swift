/// A command within the limits of `TVCommand+Limits.swift`. Only `TVCommand.checked()` makes
/// one, so a driver's planner, which takes it, never checks a range again: the command
/// parser checks each command once, and a caller that builds commands itself goes through
/// the same check.
public struct CheckedCommand: Equatable, Sendable {
    public let command: TVCommand

    fileprivate init(_ command: TVCommand) { self.command = command }
}

/// A command value outside its limits; `message` names the field and what it allows.
public struct CommandLimitViolation: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public var description: String { message }
}

extension TVCommand {
    /// This command, checked against its limits: the one check every command passes before
    /// a driver plans it.
    public func checked() throws(CommandLimitViolation) -> CheckedCommand {
        if let violation = limitViolation { throw CommandLimitViolation(message: violation) }
        return CheckedCommand(self)
    }
}
