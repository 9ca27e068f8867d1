/// The stream side shared by `HTTPRequestParser` and `HTTPResponseParser`: buffered bytes,
/// the search for the end of a header section, and the three ways a body is delimited.
///
/// Searches resume where they stopped, so bytes delivered one at a time cost linear time.
struct HTTPFramer: Sendable {
    private enum ChunkPhase: Equatable, Sendable {
        /// Expecting `chunk-size [chunk-ext] CRLF`.
        case size
        /// Inside chunk data, with this many bytes still to come.
        case data(Int)
        /// Expecting the CRLF after chunk data.
        case dataEnd
        /// After the last chunk: trailer fields until a blank line.
        case trailers
    }

    /// A chunk-size line longer than this (digits and extensions) is refused.
    static let maxChunkLineBytes = 4096

    private(set) var buffer = InputBuffer()
    let maxHeaderBytes: Int
    let maxBodyBytes: Int
    /// Where the search for a line end resumes, relative to the first unconsumed byte.
    private var scanOffset = 0
    /// Start of the line under the search, relative to the first unconsumed byte.
    private var lineOffset = 0
    /// Start of the head once leading blank lines are skipped (RFC 9112 §2.2).
    private var headOffset = 0
    private var chunkPhase = ChunkPhase.size
    private var chunkedBody: [UInt8] = []
    private var trailerBytes = 0

    init(maxHeaderBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderBytes = max(0, maxHeaderBytes)
        self.maxBodyBytes = max(0, maxBodyBytes)
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(bytes)
    }

    /// Unconsumed bytes at the given offsets from the first unconsumed byte.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        let readable = buffer.readable
        return readable[(readable.startIndex + range.lowerBound)..<(readable.startIndex + range.upperBound)]
    }

    mutating func consume(_ count: Int) {
        buffer.consume(count)
        scanOffset = 0
        lineOffset = 0
        headOffset = 0
    }

    mutating func take(_ count: Int) -> [UInt8] {
        let bytes = Array(slice(0..<count))
        consume(count)
        return bytes
    }

    mutating func takeAll() -> [UInt8] {
        take(buffer.count)
    }

    /// Whether what is buffered is only line ends, which a closing peer may leave behind.
    var holdsOnlyBlankLines: Bool {
        buffer.readable.allSatisfy { $0 == HTTPSyntax.cr || $0 == HTTPSyntax.lf }
    }

    /// Offsets of a complete head (start line through the blank line), or `nil` until one
    /// has arrived. Blank lines before the start line are skipped (RFC 9112 §2.2).
    ///
    /// - Throws: `.tooLarge` once the head, leading blank lines included, exceeds
    ///   `maxHeaderBytes`, whether or not its end has arrived.
    mutating func findHead() throws(WireError) -> Range<Int>? {
        let bytes = buffer.readable
        let base = bytes.startIndex
        var index = base + scanOffset
        var lineStart = base + lineOffset
        while index < bytes.endIndex {
            if bytes[index] == HTTPSyntax.lf {
                let contentEnd = index > lineStart && bytes[index - 1] == HTTPSyntax.cr ? index - 1 : index
                if contentEnd == lineStart {
                    if lineStart - base == headOffset {
                        headOffset = index + 1 - base
                    } else {
                        guard index + 1 - base <= maxHeaderBytes else { throw headerTooLarge }
                        let head = headOffset..<(index + 1 - base)
                        scanOffset = 0
                        lineOffset = 0
                        headOffset = 0
                        return head
                    }
                }
                lineStart = index + 1
            }
            index += 1
        }
        scanOffset = index - base
        lineOffset = lineStart - base
        guard scanOffset <= maxHeaderBytes else { throw headerTooLarge }
        return nil
    }

    private var headerTooLarge: WireError {
        .tooLarge("HTTP", "header section exceeds \(maxHeaderBytes) bytes")
    }

    /// The next line's end offsets (`contentEnd` excludes the CR), or `nil` until it arrives.
    private mutating func findLine(limit: Int) throws(WireError) -> (contentEnd: Int, next: Int)? {
        let bytes = buffer.readable
        let base = bytes.startIndex
        var index = base + scanOffset
        while index < bytes.endIndex {
            if bytes[index] == HTTPSyntax.lf {
                guard index + 1 - base <= limit else { break }
                scanOffset = 0
                let contentEnd = index > base && bytes[index - 1] == HTTPSyntax.cr ? index - 1 : index
                return (contentEnd - base, index + 1 - base)
            }
            index += 1
        }
        scanOffset = index - base
        guard scanOffset < limit else {
            throw .tooLarge("HTTP", "line in a chunked body exceeds \(limit) bytes")
        }
        return nil
    }

    /// The complete body, or `nil` until it has arrived.
    ///
    /// - Parameter atEOF: the peer has closed; a body that is still incomplete is an error
    ///   (RFC 9112 §8: an incomplete message), and a close-delimited body ends here.
    mutating func readBody(_ framing: HTTPBodyFraming, atEOF: Bool) throws(WireError) -> [UInt8]? {
        switch framing {
        case .none:
            return []
        case .length(let length):
            guard buffer.count >= length else {
                guard !atEOF else {
                    throw .malformed("HTTP", "connection closed after \(buffer.count) of \(length) body bytes")
                }
                return nil
            }
            return take(length)
        case .untilClose:
            guard buffer.count <= maxBodyBytes else {
                throw .tooLarge("HTTP", "body exceeds \(maxBodyBytes) bytes")
            }
            return atEOF ? takeAll() : nil
        case .chunked:
            return try readChunked(atEOF: atEOF)
        }
    }

    /// Decodes `Transfer-Encoding: chunked` (RFC 9112 §7.1) as far as the buffer allows,
    /// keeping the chunks decoded so far between calls.
    private mutating func readChunked(atEOF: Bool) throws(WireError) -> [UInt8]? {
        while true {
            switch chunkPhase {
            case .size:
                guard let line = try findLine(limit: Self.maxChunkLineBytes) else { return try needMore(atEOF) }
                let size = try Self.parseChunkSize(slice(0..<line.contentEnd), maxBodyBytes: maxBodyBytes)
                consume(line.next)
                if size == 0 {
                    chunkPhase = .trailers
                    trailerBytes = 0
                } else {
                    // Checked against what is already decoded, before any of the chunk is buffered.
                    guard size <= maxBodyBytes - chunkedBody.count else {
                        throw .tooLarge("HTTP", "chunked body exceeds \(maxBodyBytes) bytes")
                    }
                    chunkPhase = .data(size)
                }
            case .data(let remaining):
                let available = min(remaining, buffer.count)
                guard available > 0 else { return try needMore(atEOF) }
                chunkedBody.append(contentsOf: slice(0..<available))
                consume(available)
                chunkPhase = available == remaining ? .dataEnd : .data(remaining - available)
            case .dataEnd:
                guard let first = buffer.readable.first else { return try needMore(atEOF) }
                if first == HTTPSyntax.cr {
                    guard buffer.count >= 2 else { return try needMore(atEOF) }
                    guard slice(1..<2).first == HTTPSyntax.lf else { throw missingChunkEnd }
                    consume(2)
                } else if first == HTTPSyntax.lf {
                    consume(1)
                } else {
                    throw missingChunkEnd
                }
                chunkPhase = .size
            case .trailers:
                // Trailer fields are checked and dropped: nothing here merges them (RFC 9110 §6.5.1).
                guard let line = try findLine(limit: maxHeaderBytes - trailerBytes) else {
                    return try needMore(atEOF)
                }
                if line.contentEnd == 0 {
                    consume(line.next)
                    chunkPhase = .size
                    let body = chunkedBody
                    chunkedBody = []
                    return body
                }
                _ = try HTTPHead.parseFieldLine(slice(0..<line.contentEnd))
                trailerBytes += line.next
                consume(line.next)
            }
        }
    }

    private var missingChunkEnd: WireError {
        .malformed("HTTP", "chunk data is not followed by CRLF")
    }

    private func needMore(_ atEOF: Bool) throws(WireError) -> [UInt8]? {
        guard !atEOF else { throw .malformed("HTTP", "connection closed inside a chunked body") }
        return nil
    }

    /// Parses `chunk-size [chunk-ext]` (RFC 9112 §7.1, §7.1.1); extensions are ignored.
    ///
    /// - Throws: `.malformed` without a hex digit or with junk after it; `.tooLarge` as soon
    ///   as the size passes `maxBodyBytes`, so a long run of digits cannot overflow.
    static func parseChunkSize(_ line: ArraySlice<UInt8>, maxBodyBytes: Int) throws(WireError) -> Int {
        var index = line.startIndex
        var size = 0
        while index < line.endIndex, let digit = HTTPSyntax.hexValue(line[index]) {
            size = size &* 16 &+ digit
            guard size <= maxBodyBytes, size <= Int.max / 16 else {
                throw .tooLarge("HTTP", "chunk size exceeds \(maxBodyBytes) bytes")
            }
            index += 1
        }
        guard index > line.startIndex else {
            throw .malformed("HTTP", "chunk size is not hexadecimal")
        }
        while index < line.endIndex, HTTPSyntax.isWhitespace(line[index]) { index += 1 }
        if index < line.endIndex {
            guard line[index] == UInt8(ascii: ";"), line[index...].allSatisfy(HTTPSyntax.isFieldValueByte) else {
                throw .malformed("HTTP", "invalid chunk extension")
            }
        }
        return size
    }
}
