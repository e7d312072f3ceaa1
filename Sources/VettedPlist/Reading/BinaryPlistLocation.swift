@_spi(Scanning) import VettedCore

/// Where a structural error's value sits in a binary plist: the object graph
/// walked from the top object along a coding path.
///
/// Asked once per failed decode call, after the document was read whole (so
/// its trailer, offset table and extents are known good): each step reads one
/// container's references and, for a dictionary, its keys until one matches.
extension BinaryPlistReader {
    /// The offset of the object at `path`, or of the deepest container on the
    /// way that holds it (a missing key is reported at its dictionary).
    mutating func offset(at path: [(key: String, index: Int?)]) -> Int? {
        do {
            try prepare()
        } catch {
            return nil
        }
        var object = topObjectIndex
        for component in path {
            guard let child = try? child(of: object, component) else { break }
            object = child
        }
        return objectOffset(object)
    }

    private func child(of object: Int, _ component: (key: String, index: Int?)) throws(VettedError) -> Int? {
        let header = try objectHeader(of: object)
        let refSize = referenceSize
        switch header.marker >> 4 {
        case 0xA, 0xC:
            guard let wanted = component.index, wanted >= 0, wanted < header.length else { return nil }
            return try objectReference(at: header.payload + wanted * refSize)
        case 0xD:
            for entry in 0..<header.length {
                let key = try objectReference(at: header.payload + entry * refSize)
                if (try? keyString(key)) == component.key {
                    return try objectReference(at: header.payload + (header.length + entry) * refSize)
                }
            }
            return nil
        default:
            return nil
        }
    }
}
