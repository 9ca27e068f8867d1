// XML 1.0 as the TVs send it: XMLReader (Roku ECP, UPnP descriptions, SOAP envelopes).
import Wire

/// Writes an element tree back as XML with the escaping the simulators use.
/// `XMLElement.text` holds the element's text segments joined, so it is written first.
private func write(_ element: XMLElement, into out: inout String) {
    out += "<" + element.name
    for attribute in element.attributes {
        out += " \(attribute.name)=\"\(XMLEscaping.escapeAttribute(attribute.value))\""
    }
    out += ">" + XMLEscaping.escapeText(element.text)
    for child in element.children { write(child, into: &out) }
    out += "</\(element.name)>"
}

/// Small limits as well as the defaults, so every limit is reached by inputs of a fuzzer's size.
private let small = XMLLimits(
    maxInputBytes: 2048, maxDepth: 8, maxElements: 64, maxAttributes: 64, maxAttributesPerElement: 8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limits = input.selector(2) == 0 ? XMLLimits.default : small
    guard let root = try? XMLReader.parse(input.bytes, limits: limits) else { return 0 }
    // A tree the reader built, written out with XMLEscaping, reads back as the same tree.
    var text = ""
    write(root, into: &text)
    // Same limits but the size: escaping makes the text longer than what was read.
    var relaxed = limits
    relaxed.maxInputBytes = XMLLimits.default.maxInputBytes
    let again: XMLElement
    do throws(WireError) {
        again = try XMLReader.parse(Array(text.utf8), limits: relaxed)
    } catch {
        fuzzExpect(false, "written tree does not re-parse (\(error)): \(text)")
        return 0
    }
    fuzzExpect(again == root, "\(root) re-parses as \(again)")
    return 0
}
