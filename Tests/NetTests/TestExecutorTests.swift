import Net
import Support
import Testing

/// `swift test` runs the tests on the executor tv2mqtt runs on (`Tests/TestLoopExecutor`);
/// `TV2MQTT_EXECUTOR=pool swift test` runs them on Swift's pool, the control.
@Suite("Tests on the production executor")
struct TestExecutorTests {
    @Test("a test's task runs on the event loop's thread unless TV2MQTT_EXECUTOR=pool")
    func onTheLoop() async {
        let onLoop = ProcessEnvironment.current()[EventLoop.poolVariable] != "pool"
        let name = await Task { currentThreadName() }.value
        #expect((name == EventLoop.threadName) == onLoop, "a test task ran on \(name)")
    }
}
