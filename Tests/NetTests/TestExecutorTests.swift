import Net
import Support
import Testing

/// `TV2MQTT_EXECUTOR=loop swift test` runs the tests on the executor tv2mqtt runs on
/// (`Tests/TestLoopExecutor`); without it they run on Swift's pool.
@Suite("Tests on the production executor")
struct TestExecutorTests {
    @Test("a test's task runs on the event loop's thread exactly when TV2MQTT_EXECUTOR=loop")
    func onTheLoop() async {
        let onLoop = ProcessEnvironment.current()[EventLoop.poolVariable] == "loop"
        let name = await Task { currentThreadName() }.value
        #expect((name == EventLoop.threadName) == onLoop, "a test task ran on \(name)")
    }
}
