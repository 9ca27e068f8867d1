/// `text` as bytes, for decoders that take bytes.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
