// Binary plist fixtures as bytes, for the plist reader's tests and the CLI's.

/// Assembles a bplist00 file from encoded objects: header, objects in order,
/// a 1-byte offset table, and the trailer. `trailer` edits the 32 trailer
/// bytes before they are appended (to forge sizes, counts and offsets).
public func bplist(
    _ objects: [[UInt8]], top: UInt64 = 0, referenceSize: UInt8 = 1, offsets: [Int]? = nil,
    trailer edit: (inout [UInt8]) -> Void = { _ in }
) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var computed: [Int] = []
    for object in objects {
        computed.append(bytes.count)
        bytes += object
    }
    let tableOffset = bytes.count
    for offset in offsets ?? computed { bytes.append(UInt8(truncatingIfNeeded: offset)) }
    var trailer = [UInt8](repeating: 0, count: 6) + [1, referenceSize]
    trailer += bigEndian(UInt64(objects.count)) + bigEndian(top) + bigEndian(UInt64(tableOffset))
    edit(&trailer)
    return bytes + trailer
}

public func bigEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
}
