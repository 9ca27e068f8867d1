import TVModel

/// A command checked against one TV and resolved into what its driver will send: made by
/// `TVDriver.plan` (pure: nothing is sent, so it is made once, when the command arrives),
/// carried out by `TVDriver.execute` of the same driver, later, from the TV's command queue.
public struct TVPlan: Sendable {
    /// The command it carries out (its name goes into log lines and `command_failed`).
    public let command: TVCommand
    /// The driver's own steps (`RokuAction`, `SamsungAction`…): only the driver that made the
    /// plan reads them, with `steps(as:)`.
    private let steps: any Sendable

    public init(_ command: TVCommand, steps: any Sendable) {
        self.command = command
        self.steps = steps
    }

    /// The steps, as the driver that made the plan knows them. A plan made by another kind of
    /// driver is refused (a bridge bug, never sent).
    public func steps<Steps: Sendable>(as type: Steps.Type) throws(DriverError) -> Steps {
        guard let steps = steps as? Steps else {
            throw DriverError(.rejected, "\(command.name): the plan was made for another kind of TV")
        }
        return steps
    }
}
