import Testing

/// Every status-page suite, one test at a time: each starts a broker, a simulated TV and a
/// bridge, and fourteen of them at once at the start of the run starved the time-sensitive
/// tests of other targets on a two-core machine.
@Suite("Status page", .serialized)
struct StatusPageSuite {}
