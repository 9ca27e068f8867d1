import Glibc

extension ChildProcess {
    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: a path, or a bare name looked up by `ExecutableLookup` (`PATH`, then
    ///     `/usr/local/sbin`, `/usr/sbin`, `/sbin`); throws `HarnessError.executableNotFound`.
    ///   - environment: the complete environment; nil inherits the test process's.
    ///   - workingDirectory: nil keeps the test process's.
    ///   - stdout, stderr: see `Output`; `.capture` files are removed when this object goes away.
    ///   - stdin: see `Input`; `/dev/null` by default.
    ///   - diesWithParent: start through `setpriv --pdeathsig KILL` (when available) so the child
    ///     is killed if the test process dies without running its exit handlers.
    ///   - killsGroupOnExit: when the child ends, `SIGKILL` whatever remains in its process group
    ///     (background jobs of a shell, for instance).
    public static func spawn(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, stdout: Output = .inherit, stderr: Output = .inherit,
        stdin: Input = .null, diesWithParent: Bool = true, killsGroupOnExit: Bool = true
    ) async throws(HarnessError) -> ChildProcess {
        let path = try ExecutableLookup.require(executable)
        var owned: [String] = []
        var redirections: [(fd: Int32, path: String, flags: Int32)] = []
        do {
            switch stdin {
            case .null: redirections.append((0, "/dev/null", O_RDONLY))
            case .inherit: break
            case .file(let file): redirections.append((0, file, O_RDONLY))
            case .text(let text):
                let file = try FileText.makeTemporaryFile(prefix: "harness-stdin", contents: text)
                owned.append(file)
                redirections.append((0, file, O_RDONLY))
            }
            var captures: [String?] = []
            for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
                switch output {
                case .inherit: captures.append(nil)
                case .discard:
                    captures.append(nil)
                    redirections.append((fd, "/dev/null", O_WRONLY))
                case .file(let file):
                    captures.append(nil)
                    redirections.append((fd, file, O_WRONLY | O_CREAT | O_APPEND))
                case .capture:
                    let file = try FileText.makeTemporaryFile(prefix: "harness-out", contents: "")
                    owned.append(file)
                    captures.append(file)
                    redirections.append((fd, file, O_WRONLY | O_APPEND))
                }
            }
            let request = ProcessLauncher.Request(
                executable: path, arguments: arguments, environment: environment,
                workingDirectory: workingDirectory, redirections: redirections, diesWithParent: diesWithParent)
            let state = ChildState(killsGroupOnExit: killsGroupOnExit)
            let pid = try await ProcessLauncher.launch(request, state: state)
            return ChildProcess(
                pid: pid, executablePath: path, arguments: arguments, state: state,
                stdoutCapture: captures[0], stderrCapture: captures[1], ownedFiles: owned)
        } catch {
            for file in owned { unlink(file) }
            throw error
        }
    }
}

/// The outcome of `ChildProcess.run`.
public struct CommandResult: Sendable {
    public var status: TerminationStatus
    public var output: String
    public var error: String
}

extension ChildProcess {
    /// Runs a command to completion with captured output. Throws `HarnessError.timedOut` (after
    /// killing it) when it takes longer than `timeout`; a non-zero exit is returned, not thrown.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, stdin: Input = .null, timeout: Duration = .seconds(30)
    ) async throws(HarnessError) -> CommandResult {
        let child = try await spawn(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            stdout: .capture, stderr: .capture, stdin: stdin)
        guard let status = await child.wait(timeout: timeout) else {
            await child.terminate(grace: .milliseconds(500))
            throw .timedOut(what: child.commandLine, after: timeout)
        }
        return CommandResult(status: status, output: child.capturedOutput(), error: child.capturedError())
    }

    /// `run`, throwing `HarnessError.commandFailed` (with the error output) unless it exits 0.
    @discardableResult
    public static func runChecked(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, stdin: Input = .null, timeout: Duration = .seconds(30)
    ) async throws(HarnessError) -> CommandResult {
        let result = try await run(
            executable, arguments, environment: environment, workingDirectory: workingDirectory, stdin: stdin,
            timeout: timeout)
        guard result.status.isSuccess else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw .commandFailed(command: command, status: result.status, output: result.error + result.output)
        }
        return result
    }
}
