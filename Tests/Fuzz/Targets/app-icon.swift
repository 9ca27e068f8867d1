// App icons: AppIcon.decode, which decides whether a TV's `/query/icon` answer is published as
// the `app_icon` image, with each kind of declared content type.

import TVModel

private let declaredTypes: [String?] = [nil, "image/png", "image/jpeg", "text/xml; charset=utf-8", "", "IMAGE/GIF"]
private let published: Set<String> = ["image/png", "image/jpeg"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppIcon(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let declared = declaredTypes[input.selector(declaredTypes.count)]
    guard let icon = AppIcon.decode(input.bytes, declaredType: declared) else { return 0 }
    // What is published is what the TV sent, within the bound, of a type a browser shows.
    fuzzExpect(icon.bytes == input.bytes, "the bytes changed")
    fuzzExpect(!icon.bytes.isEmpty && icon.bytes.count <= AppIcon.maxBytes, "\(icon.bytes.count) bytes")
    fuzzExpect(published.contains(icon.contentType), "type \(icon.contentType)")
    return 0
}
