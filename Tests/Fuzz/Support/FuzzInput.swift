// Shared by every fuzz target (compiled into each; see Tests/Fuzz/build.sh).

/// One libFuzzer input, with deterministic ways to vary how it is fed to a decoder.
///
/// The choices (split pattern, selector) are derived from the input's length rather than from
/// its first bytes, so a seed taken from a fixture reaches the decoder unchanged and the
/// fuzzer still explores every choice as it grows and shrinks inputs.
struct FuzzInput {
    let bytes: [UInt8]

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        // libFuzzer passes a valid pointer, but an empty input need not have one.
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// A small number picked by the input, for choosing among `count` variants.
    func selector(_ count: Int) -> Int { bytes.count % count }

    /// The input cut into chunks of varying sizes (1, 2, 3, 5… cycling from a length-derived
    /// start), as a socket might deliver it: stream decoders must give the same result for any
    /// split, which catches state kept wrongly across `append` calls.
    var chunks: [ArraySlice<UInt8>] {
        let sizes = [1, 2, 3, 5, 8, 13, 64, 1, 512]
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = bytes.count % sizes.count
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[index])
            result.append(bytes[start..<end])
            start = end
            index = (index + 1) % sizes.count
        }
        return result
    }
}

/// Stops the run with a message when an invariant breaks: the trap is a crash for libFuzzer,
/// which then saves the input as an artifact.
func fuzzExpect(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant broken: \(message())", line: line) }
}
