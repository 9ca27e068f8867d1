import Harness

/// The commit the figures belong to, for `--markdown`: `git describe --always --dirty` in the
/// working directory (the checkout tvbench runs from), or "unknown" outside one.
enum SourceCommit {
    static func describe() async -> String {
        guard
            let result = try? await ChildProcess.run("git", ["describe", "--always", "--dirty", "--abbrev=7"]),
            result.status.isSuccess
        else { return "unknown" }
        let commit = result.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return commit.isEmpty ? "unknown" : commit
    }
}
