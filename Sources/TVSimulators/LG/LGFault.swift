/// How a simulated LG misbehaves on purpose (`LGSimulator.setFault`), so a client's tests can
/// show it refuses what a broken TV, or a host posing as one, sends. Faults change the answers
/// to requests and subscriptions made after registration; pushes and pairing stay as they are.
public enum LGFault: Sendable, Equatable {
    /// Each answer is a text frame that is not JSON.
    case garbage
    /// Each answer carries a `junk` string of this many characters (a huge message).
    case huge(Int)
    /// Each answer names an id nobody sent.
    case unknownIDs
    /// Each answer has the message type "bogus".
    case unknownType
    /// `getPointerInputSocket` answers a socket path on this host (another machine).
    case pointerHost(String)
}
