import Glibc
import Harness
import Testing

@Suite("Harness: ChildProcess")
struct HarnessChildProcessTests {
    @Test("a spawned child has an empty signal mask, default dispositions, its own group, and ends on SIGTERM")
    func childEndsOnSigterm() async throws {
        let child = try await ChildProcess.spawn("sleep", ["30"])
        // Through `setpriv` the pid is kept across exec; wait until it is `sleep` itself.
        let isSleep = await waitUntil(timeout: .seconds(30)) { ProcessInspection.command(pid: child.pid) == "sleep" }
        #expect(isSleep)
        #expect(ProcessInspection.mask("SigBlk", pid: child.pid) == 0)
        // No standard signal (1–31) ignored. glibc's posix_spawn leaves its two internal
        // real-time signals (32, 33) ignored in every child; nothing uses them after exec.
        #expect((ProcessInspection.mask("SigIgn", pid: child.pid) ?? 1) & 0x7FFF_FFFF == 0)
        #expect(getpgid(child.pid) == child.pid)
        #expect(getpgid(child.pid) != getpgrp())
        #expect(child.isRunning)

        #expect(child.signal(SIGTERM))
        #expect(await child.wait(timeout: .seconds(5)) == .signaled(SIGTERM))
        #expect(!child.isRunning)
        #expect(!child.signal(SIGTERM), "signalling a reaped child must be refused")
        #expect(ProcessInspection.leaked([child.pid]).isEmpty)
    }

    @Test("terminate escalates to SIGKILL when the child's whole group ignores SIGTERM")
    func terminateEscalates() async throws {
        // `trap "" TERM` makes sh ignore TERM, and an ignored signal stays ignored across exec,
        // so each `sleep` it starts (in the same process group) ignores it too: SIGTERM to the
        // group ends nothing and only the SIGKILL after the grace period stops the loop.
        let child = try await ChildProcess.spawn("sh", ["-c", "trap '' TERM; while :; do sleep 0.1; done"])
        let ignoresTerm = await waitUntil(timeout: .seconds(30)) {
            (ProcessInspection.mask("SigIgn", pid: child.pid) ?? 0) & (1 << (UInt64(SIGTERM) - 1)) != 0
        }
        #expect(ignoresTerm)
        child.signalGroup(SIGTERM)
        #expect(await child.wait(timeout: .milliseconds(300)) == nil, "TERM must really be ignored")

        let clock = ContinuousClock()
        let start = clock.now
        let status = await child.terminate(grace: .milliseconds(500))
        #expect(status == .signaled(SIGKILL))
        #expect(clock.now - start >= .milliseconds(500))
        let groupGone = await waitUntil(timeout: .seconds(30)) { ProcessInspection.liveGroupMembers(child.pid).isEmpty }
        #expect(groupGone, "the sleeps in the group are gone too")
        #expect(ProcessInspection.leaked([child.pid]).isEmpty)
    }

    @Test("terminate of a cooperative child returns its SIGTERM status without waiting for the grace period")
    func terminateIsQuickForCooperativeChild() async throws {
        let child = try await ChildProcess.spawn("sleep", ["300"])
        let clock = ContinuousClock()
        let start = clock.now
        // A grace of 60 s: ending in under half of it shows terminate did not wait for it, with
        // room for a loaded machine that schedules the reaper seconds late.
        #expect(await child.terminate(grace: .seconds(60)) == .signaled(SIGTERM))
        #expect(clock.now - start < .seconds(30))
        #expect(await child.terminate() == .signaled(SIGTERM), "terminating again returns the same status")
    }

    @Test("standard output and error are captured and the exit code is reported")
    func captureAndExitCode() async throws {
        let child = try await ChildProcess.spawn(
            "sh", ["-c", "echo out; echo err >&2; exit 3"], stdout: .capture, stderr: .capture)
        #expect(await child.wait() == .exited(3))
        #expect(child.capturedOutput() == "out\n")
        #expect(child.capturedError() == "err\n")
        #expect(child.exitStatus?.isSuccess == false)
    }

    @Test("run returns status and output; runChecked throws with the error output on failure")
    func runAndRunChecked() async throws {
        let result = try await ChildProcess.run("cat", stdin: .text("from stdin"))
        #expect(result.status == .exited(0))
        #expect(result.output == "from stdin")

        let error = await #expect(throws: HarnessError.self) {
            try await ChildProcess.runChecked("sh", ["-c", "echo broken >&2; exit 7"])
        }
        guard case .commandFailed(_, let status, let output)? = error else {
            Issue.record("expected commandFailed, got \(String(describing: error))")
            return
        }
        #expect(status == .exited(7))
        #expect(output.contains("broken"))
    }

    @Test("run kills a command that outlives its timeout and throws timedOut")
    func runTimesOut() async throws {
        // `sleep 300` would outlast the test's hang bound: only the kill ends it in time.
        let error = await #expect(throws: HarnessError.self) {
            _ = try await ChildProcess.run("sleep", ["300"], timeout: .milliseconds(200))
        }
        guard case .timedOut? = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
    }

    @Test("environment, working directory, file output and discarded output apply to the child")
    func environmentDirectoryAndFiles() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.file("out.log")
        try FileText.write("first\n", to: log)
        let child = try await ChildProcess.spawn(
            "sh", ["-c", "echo \"$HARNESS_VALUE $(pwd)\"; echo noise >&2"],
            environment: ["HARNESS_VALUE": "v42", "PATH": "/usr/bin:/bin"], workingDirectory: directory.path,
            stdout: .file(log), stderr: .discard)
        #expect(await child.wait() == .exited(0))
        #expect(FileText.read(log) == "first\nv42 \(directory.path)\n")
    }

    @Test("descriptors of the test process are not inherited beyond stdin, stdout and stderr")
    func descriptorsAreClosed() async throws {
        let fd = open("/dev/null", O_RDONLY)  // deliberately without O_CLOEXEC
        #expect(fd > 2)
        defer { close(fd) }
        let result = try await ChildProcess.run("sh", ["-c", "test -e /proc/$$/fd/\(fd) && echo open || echo closed"])
        #expect(result.output == "closed\n")
    }

    @Test("a bare name is found in /usr/sbin even when PATH lacks it; an unknown name is a clear error")
    func executableLookup() async throws {
        #expect(ExecutableLookup.searchDirectories.contains("/usr/sbin"))
        #expect(ExecutableLookup.resolve("sh")?.hasSuffix("/sh") == true)
        let error = await #expect(throws: HarnessError.self) {
            _ = try await ChildProcess.spawn("no-such-harness-tool")
        }
        guard case .executableNotFound(let name, let searched)? = error else {
            Issue.record("expected executableNotFound, got \(String(describing: error))")
            return
        }
        #expect(name == "no-such-harness-tool")
        #expect(searched.contains("/usr/sbin"))
        #expect(String(describing: error!).contains("'no-such-harness-tool' not found"))
    }

    @Test("when a child ends, what it left running in its process group is killed")
    func groupIsKilledOnExit() async throws {
        let child = try await ChildProcess.spawn("sh", ["-c", "sleep 30 & echo $!"], stdout: .capture)
        #expect(await child.wait(timeout: .seconds(5)) == .exited(0))
        let orphan = try #require(pid_t(child.capturedOutput().trimmingCharacters(in: "\n")))
        let orphanGone = await waitUntil(timeout: .seconds(30)) { !ProcessInspection.isAlive(orphan) }
        #expect(orphanGone)
    }

    @Test("wait with a timeout returns nil while the child runs, and kill ends it with SIGKILL")
    func waitTimeoutAndKill() async throws {
        let child = try await ChildProcess.spawn("sleep", ["30"])
        #expect(await child.wait(timeout: .milliseconds(50)) == nil)
        child.kill()
        #expect(await child.wait() == .signaled(SIGKILL))
        #expect(ProcessInspection.leaked([child.pid]).isEmpty)
    }

    @Test("a cancelled wait with a timeout returns nil at once and leaves the child running")
    func cancelledWait() async throws {
        let child = try await ChildProcess.spawn("sleep", ["30"])
        let waiter = Task { await child.wait(timeout: .seconds(30)) }
        waiter.cancel()
        #expect(await waiter.value == nil)
        #expect(child.isRunning)
        #expect(await child.terminate() == .signaled(SIGTERM))
    }

    @Test("many children run and are reaped concurrently")
    func manyChildren() async throws {
        var children: [ChildProcess] = []
        for index in 0..<20 { children.append(try await ChildProcess.spawn("sh", ["-c", "exit \(index)"])) }
        var statuses: [TerminationStatus] = []
        for child in children { statuses.append(await child.wait()) }
        let expectedStatuses: [TerminationStatus] = (0..<20).map { .exited(Int32($0)) }
        #expect(statuses == expectedStatuses)
        #expect(ProcessInspection.leaked(children.map(\.pid)).isEmpty)
    }
}
