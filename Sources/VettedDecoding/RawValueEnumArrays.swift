extension _VettedRawValueEnum {
    /// An array of `count` cases, as both decoders' fast paths read one: each
    /// element is found by `locate`, then read by `fast` when that names a case
    /// (a raw value of the right kind) and `fastAllowed` (the stack has room at
    /// the elements' depth); any other element is read by `standard`, the
    /// type's `init(from:)`, which gives its own value or error. The array is
    /// built in the enum's module (``__vettedArray(count:_:)``), where its type
    /// is known.
    ///
    /// - Throws: What `locate` throws, and what `standard` throws for an element `fast` did not read.
    package static func _elements<Element>(
        count: Int, fastAllowed: Bool, locate: (Int) throws -> Element, fast: (Element) throws -> Self,
        standard: (Element, Int) throws -> Self
    ) throws -> [Self] {
        try __vettedArray(count: count) { index in
            let element = try locate(index)
            if fastAllowed {
                // A miss (no such case, another kind of value) is not the answer: the standard
                // decoding gives it. (Not `try?`: an optional of `Self` here would make the
                // runtime build its metadata on every call.)
                do { return try fast(element) } catch {}
            }
            return try standard(element, index)
        }
    }
}
