import Drivers
import TVModel

// The planners take only a `CheckedCommand`; these tests build commands themselves, so they
// pass them through the one check first, as `TVDriver.plan(_: TVCommand)` does.

extension RokuCommandPlanner {
    func plan(_ command: TVCommand) throws(CommandRejection) -> RokuAction {
        try plan(try command.checkedForPlanning())
    }
}

extension SamsungCommandPlanner {
    func plan(_ command: TVCommand) throws(CommandRejection) -> SamsungAction {
        try plan(try command.checkedForPlanning())
    }
}

extension SamsungLegacyPlanner {
    static func plan(_ command: TVCommand, macs: [String]) throws(CommandRejection) -> SamsungLegacyAction {
        try plan(try command.checkedForPlanning(), macs: macs)
    }
}
