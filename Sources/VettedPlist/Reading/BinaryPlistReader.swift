#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@_spi(Scanning) import VettedCore

/// Reads `bplist00`. Everything is checked before it is used:
///
/// 1. The 32-byte trailer: sizes in 1...8, at least one object, the top object
///    in range, the offset table inside the file, all with overflow-reporting
///    arithmetic.
/// 2. Every offset points into the object area; every object's extent (marker,
///    length, payload, references) lies inside it; no two objects overlap.
/// 3. Building the value is iterative: containers that contain themselves are
///    `cyclicReference`; shared references are allowed, but every expansion
///    counts against ``Limits/maxValues`` and against the expansion allowance
///    (``Limits/expansionAllowance(forInputBytes:)``: a value's 16 bytes plus
///    its string's or data's bytes, each time it is used), so a small file
///    that expands fails fast with `valueLimitExceeded` or
///    `amplificationLimitExceeded`; depth, members and string bytes are
///    limited. A string or data object of 64 bytes or more that is used
///    again is shared, not copied, so memory stays near the input's size.
struct BinaryPlistReader {
    private let scanner: ByteScanner
    private let source: SourceText
    private let limits: Limits

    private var offsetIntSize = 0
    private var objectRefSize = 0
    private var objectCount = 0
    private var topObject = 0
    private var offsetTableOffset = 0

    /// Trailer layout: 5 unused bytes, sort version, offset int size, object
    /// ref size, object count (8), top object (8), offset table offset (8).
    static let trailerSize = 32
    static let headerSize = 8

    private let duplicateKeys: DuplicateKeyPolicy

    init(scanner: ByteScanner, source: SourceText, limits: Limits, duplicateKeys: DuplicateKeyPolicy = .reject) {
        self.scanner = scanner
        self.source = source
        self.limits = limits
        self.duplicateKeys = duplicateKeys
        self.budget = ExpansionBudget(limits: limits, inputBytes: scanner.count)
    }

    mutating func read() throws(VettedError) -> PlistValue {
        try prepare()
        return try readPrepared()
    }

    /// Reads and checks the trailer, the offset table and every object's extent.
    mutating func prepare() throws(VettedError) {
        try readTrailer()
        try readOffsets()
        try checkExtents()
        onPath = [Bool](repeating: false, count: objectCount)
    }

    /// After ``prepare()``: the whole document's value.
    mutating func readPrepared() throws(VettedError) -> PlistValue {
        try materialize(topObject, above: 0)
    }

    // MARK: A top-level array, one element at a time

    /// After ``prepare()``: when the top object is an array (or set), opens it
    /// and returns its count, so that ``element(_:)`` reads each element's tree
    /// on its own and nothing holds the whole document's values. `nil` when the
    /// top object is anything else (then nothing has changed: use ``read()``).
    /// Every check of ``read()`` applies as each element is read: shared
    /// objects count against `maxValues` across elements, and an element that
    /// contains the array is `cyclicReference`.
    mutating func openTopArray() throws(VettedError) -> Int? {
        let offset = offset(of: topObject)
        let header = try header(at: offset)
        guard frames.isEmpty, header.marker >> 4 == 0xA || header.marker >> 4 == 0xC else { return nil }
        valueCount += 1
        guard valueCount <= limits.maxValues else {
            throw error(.valueLimitExceeded, at: offset, "more than \(limits.maxValues) values")
        }
        guard budget.chargeValue() else { throw error(.amplificationLimitExceeded, at: offset, budget.exceededMessage) }
        guard header.length <= limits.maxMembers else {
            throw error(.memberLimitExceeded, at: offset, "container has \(header.length) members; the limit is \(limits.maxMembers)")
        }
        onPath[topObject] = true
        frames.append(
            Frame(object: topObject, isDictionary: false, references: header.payload, count: header.length, valueBase: 0, keyBase: 0))
        return header.length
    }

    /// Element `index` of the array opened by ``openTopArray()``, with every check of ``read()``.
    mutating func element(_ index: Int) throws(VettedError) -> PlistValue {
        guard frames.count == 1, frames[0].count > index, index >= 0 else {
            throw error(.internalInvariantViolated, at: 0, "element \(index) of the top array was asked for out of turn")
        }
        frames[0].position = index + 1
        let object = try reference(at: frames[0].references + index * objectRefSize)
        return try materialize(object, above: 1)
    }

    // MARK: Trailer and offsets

    private mutating func readTrailer() throws(VettedError) {
        let count = scanner.count
        // Header, one object of at least one byte, one offset, trailer.
        guard count >= Self.headerSize + 2 + Self.trailerSize else {
            throw error(.invalidTrailer, at: count, "file is \(count) bytes: too short for a binary plist")
        }
        let trailer = count - Self.trailerSize
        offsetIntSize = Int(scanner.byte(at: trailer + 6))
        objectRefSize = Int(scanner.byte(at: trailer + 7))
        guard (1...8).contains(offsetIntSize) else {
            throw error(.invalidTrailer, at: trailer + 6, "offset size \(offsetIntSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(objectRefSize) else {
            throw error(.invalidTrailer, at: trailer + 7, "object reference size \(objectRefSize) is not 1 to 8 bytes")
        }
        let rawCount = scanner.bigEndianInteger(at: trailer + 8, size: 8)
        let rawTop = scanner.bigEndianInteger(at: trailer + 16, size: 8)
        let rawTable = scanner.bigEndianInteger(at: trailer + 24, size: 8)
        // Each object takes at least one byte, so a count above the file size is a lie.
        guard rawCount >= 1, rawCount <= UInt64(count) else {
            throw error(.invalidTrailer, at: trailer + 8, "object count \(rawCount) is impossible in \(count) bytes")
        }
        objectCount = Int(rawCount)
        guard objectCount <= limits.maxValues else {
            throw error(.valueLimitExceeded, at: trailer + 8, "\(objectCount) objects; the limit is \(limits.maxValues) values")
        }
        guard rawTop < rawCount else {
            throw error(.invalidTrailer, at: trailer + 16, "top object \(rawTop) is not one of the \(rawCount) objects")
        }
        topObject = Int(rawTop)
        // Invariant: the offset table lies between the first object and the trailer.
        guard rawTable >= UInt64(Self.headerSize + 1), rawTable < UInt64(trailer) else {
            throw error(.invalidTrailer, at: trailer + 24, "offset table offset \(rawTable) is outside the file")
        }
        offsetTableOffset = Int(rawTable)
        let (tableSize, sizeOverflow) = objectCount.multipliedReportingOverflow(by: offsetIntSize)
        let (tableEnd, endOverflow) = offsetTableOffset.addingReportingOverflow(tableSize)
        guard !sizeOverflow, !endOverflow, tableEnd <= trailer else {
            throw error(
                .invalidTrailer, at: trailer + 24, "offset table of \(objectCount) × \(offsetIntSize) bytes runs into the trailer")
        }
    }

    /// Checks every entry of the offset table. Offsets are not copied out:
    /// ``offset(of:)`` reads them from the table, so that the document's
    /// overhead beyond its bytes stays small.
    private func readOffsets() throws(VettedError) {
        for index in 0..<objectCount {
            let position = offsetTableOffset + index * offsetIntSize
            let offset = scanner.bigEndianInteger(at: position, size: offsetIntSize)
            // Invariant: objects live between the header and the offset table.
            guard offset >= UInt64(Self.headerSize), offset < UInt64(offsetTableOffset) else {
                throw error(.offsetOutOfBounds, at: position, "object \(index) is at offset \(offset), outside the object area")
            }
        }
    }

    // For the locator (BinaryPlistLocation.swift): the checked pieces, read-only.
    var topObjectIndex: Int { topObject }
    var referenceSize: Int { objectRefSize }
    func objectOffset(_ index: Int) -> Int { offset(of: index) }
    func objectHeader(of index: Int) throws(VettedError) -> (marker: UInt8, length: Int, payload: Int) {
        let header = try header(at: offset(of: index))
        return (header.marker, header.length, header.payload)
    }
    func objectReference(at position: Int) throws(VettedError) -> Int { try reference(at: position) }
    func keyString(_ object: Int) throws(VettedError) -> String { try readKey(object) }

    /// Where object `index` (in `0..<objectCount`) starts: checked by ``readOffsets()``.
    private func offset(of index: Int) -> Int {
        Int(truncatingIfNeeded: scanner.bigEndianInteger(at: offsetTableOffset + index * offsetIntSize, size: offsetIntSize))
    }

    // MARK: Object extents

    /// What an object's marker says about it.
    private struct ObjectHeader {
        let marker: UInt8
        /// Length from the marker (or its extended length): bytes, units or entries.
        let length: Int
        /// Offset of the payload (after the marker and any extended length).
        let payload: Int
        /// Offset just past the object.
        let end: Int
    }

    /// Parses the marker of the object at `offset` and computes its extent,
    /// checking that it ends inside the object area.
    private func header(at offset: Int) throws(VettedError) -> ObjectHeader {
        let marker = scanner.byte(at: offset)
        let type = marker >> 4
        let info = Int(marker & 0x0F)
        var length = 0
        var payload = offset + 1
        var size = 0
        switch type {
        case 0x0:
            switch marker {
            case 0x00, 0x08, 0x09, 0x0F: break
            default: throw invalidMarker(marker, at: offset)
            }
        case 0x1:
            guard info <= 4 else { throw invalidMarker(marker, at: offset) }
            size = 1 << info
        case 0x2:
            guard info == 2 || info == 3 else { throw invalidMarker(marker, at: offset) }
            size = 1 << info
        case 0x3:
            guard marker == 0x33 else { throw invalidMarker(marker, at: offset) }
            size = 8
        case 0x4, 0x5, 0x6, 0xA, 0xC, 0xD:
            (length, payload) = try extendedLength(info, at: offset)
            let unit: Int
            switch type {
            case 0x4, 0x5: unit = 1
            case 0x6: unit = 2
            case 0xD: unit = 2 * objectRefSize
            default: unit = objectRefSize
            }
            let (bytes, overflow) = length.multipliedReportingOverflow(by: unit)
            guard !overflow else { throw truncated(at: offset) }
            size = bytes
        case 0x8:
            guard info <= 7 else { throw invalidMarker(marker, at: offset) }
            size = info + 1
        default:
            throw invalidMarker(marker, at: offset)
        }
        // Invariant: the object ends at or before the offset table.
        let (end, overflow) = payload.addingReportingOverflow(size)
        guard !overflow, end <= offsetTableOffset else { throw truncated(at: offset) }
        return ObjectHeader(marker: marker, length: length, payload: payload, end: end)
    }

    /// The length in the low nibble, or (0xF) the integer object that follows.
    private func extendedLength(_ info: Int, at offset: Int) throws(VettedError) -> (length: Int, payload: Int) {
        guard info == 0x0F else { return (info, offset + 1) }
        let lengthMarker = scanner.byte(at: offset + 1)
        guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
            throw error(.invalidObjectMarker, at: offset + 1, "extended length is not an integer of 1 to 8 bytes")
        }
        let size = 1 << Int(lengthMarker & 0x0F)
        guard offset + 2 + size <= offsetTableOffset else { throw truncated(at: offset) }
        let raw = scanner.bigEndianInteger(at: offset + 2, size: size)
        // No length can exceed the file; this also keeps later products small.
        guard raw <= UInt64(scanner.count) else { throw truncated(at: offset) }
        return (Int(raw), offset + 2 + size)
    }

    /// Every object is well-formed and inside the object area, and no two overlap.
    private func checkExtents() throws(VettedError) {
        var extents: [(start: Int, end: Int)] = []
        extents.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            let offset = offset(of: index)
            extents.append((offset, try header(at: offset).end))
        }
        extents.sort { $0.start < $1.start }
        for index in extents.indices.dropFirst() where extents[index].start < extents[index - 1].end {
            throw error(
                .overlappingObjects, at: extents[index].start,
                "object at offset \(extents[index].start) overlaps the object at offset \(extents[index - 1].start)",
                related: extents[index - 1].start)
        }
    }

    // MARK: Values

    private struct Frame {
        let object: Int
        let isDictionary: Bool
        let references: Int
        let count: Int
        var position = 0
        let valueBase: Int
        let keyBase: Int
    }

    /// Open containers, innermost last, and the values and keys not yet placed.
    private var frames: [Frame] = []
    private var values: [PlistValue] = []
    private var keys: [String] = []

    /// A defect found by a static helper; the reader adds the path.
    private struct Failure: Error {
        let code: VettedError.Code
        let offset: Int
        let message: String
    }

    private func reference(at position: Int) throws(VettedError) -> Int {
        let raw = scanner.bigEndianInteger(at: position, size: objectRefSize)
        guard raw < UInt64(objectCount) else {
            throw error(.referenceOutOfBounds, at: position, "reference to object \(raw); there are \(objectCount)", path: currentPath())
        }
        return Int(raw)
    }

    /// Which containers are open (a container met again inside itself is a cycle).
    private var onPath: [Bool] = []
    /// Values made so far: a shared object counts each time it is used.
    private var valueCount = 0
    /// What the values made so far expand into: a shared object counts each time it is used.
    private var budget: ExpansionBudget
    /// String and data objects of ``sharedPayloadBytes`` or more, by object, once made.
    private var sharedScalars: [Int: PlistValue] = [:]
    private static let sharedPayloadBytes = 64

    /// The value of `first`, read iteratively above the `base` frames already open.
    private mutating func materialize(_ first: Int, above base: Int) throws(VettedError) -> PlistValue {
        let maxDepth = limits.effectiveMaxDepth
        let valueBase = values.count
        var next: Int? = first

        while true {
            if let object = next {
                next = nil
                valueCount += 1
                let offset = offset(of: object)
                guard valueCount <= limits.maxValues else {
                    throw error(
                        .valueLimitExceeded, at: offset,
                        "more than \(limits.maxValues) values (shared objects count each time they are used)", path: currentPath())
                }
                let header = try header(at: offset)
                let type = header.marker >> 4
                // Strings and data expand into their bytes; everything else into one value.
                let payload = type == 0x4 || type == 0x5 || type == 0x6 ? header.end - header.payload : 0
                guard budget.chargeValue(payload: payload) else {
                    throw error(.amplificationLimitExceeded, at: offset, budget.exceededMessage, path: currentPath())
                }
                switch type {
                case 0xA, 0xC, 0xD:
                    guard !onPath[object] else {
                        throw error(.cyclicReference, at: offset, "container at offset \(offset) contains itself", path: currentPath())
                    }
                    guard frames.count < maxDepth else {
                        throw error(.depthLimitExceeded, at: offset, "nesting is deeper than the limit of \(maxDepth)", path: currentPath())
                    }
                    guard header.length <= limits.maxMembers else {
                        throw error(
                            .memberLimitExceeded, at: offset,
                            "container has \(header.length) members; the limit is \(limits.maxMembers)", path: currentPath())
                    }
                    onPath[object] = true
                    frames.append(
                        Frame(
                            object: object, isDictionary: header.marker >> 4 == 0xD, references: header.payload,
                            count: header.length, valueBase: values.count, keyBase: keys.count))
                default:
                    if payload >= Self.sharedPayloadBytes, let shared = sharedScalars[object] {
                        values.append(shared)
                        break
                    }
                    let value: PlistValue
                    do {
                        value = try Self.scalar(scanner, header, at: offset, limits: limits)
                    } catch {
                        throw self.error(error.code, at: error.offset, error.message, path: currentPath())
                    }
                    if payload >= Self.sharedPayloadBytes { sharedScalars[object] = value }
                    values.append(value)
                }
            }
            guard frames.count > base, let top = frames.last else { break }
            if top.position < top.count {
                let index = frames.count - 1
                let position = top.position
                frames[index].position += 1
                if top.isDictionary {
                    let keyObject = try reference(at: top.references + position * objectRefSize)
                    keys.append(try key(keyObject))
                    next = try reference(at: top.references + (top.count + position) * objectRefSize)
                } else {
                    next = try reference(at: top.references + position * objectRefSize)
                }
                continue
            }
            frames.removeLast()
            onPath[top.object] = false
            if top.isDictionary {
                // Entries straight from the pending keys and values: no array of the values alone.
                var members = OrderedMembers(keys: keys.takeSuffix(from: top.keyBase), values: values.takeSuffix(from: top.valueBase))
                do throws(RepeatedKey) {
                    members = try members.applying(duplicateKeys)
                } catch {
                    // At the repeated key's object, with the path of the dictionary's member. Only the
                    // error's location: both references were read (and checked) when the keys were,
                    // and should one fail here, the error still stands, at the dictionary's offset.
                    let keyOffset = (try? reference(at: top.references + error.position * objectRefSize)).map(offset(of:)) ?? offset(of: top.object)
                    let firstOffset = (try? reference(at: top.references + error.first * objectRefSize)).map(offset(of:))
                    throw self.error(
                        .duplicateKey, at: keyOffset, "key \"\(Excerpt.escape(error.key))\" appears twice in one dictionary",
                        path: DocumentPath(currentPath().components + [.key(error.key)]), related: firstOffset)
                }
                values.append(.dictionary(PlistDictionary(members)))
            } else {
                let elements = values.takeSuffix(from: top.valueBase)
                values.append(.array(elements))
            }
        }
        guard values.count == valueBase + 1, let root = values.popLast() else {
            throw error(.internalInvariantViolated, at: offset(of: first), "reading object \(first) left \(values.count - valueBase) values")
        }
        return root
    }

    /// The path of the value being read, built only for errors.
    private func currentPath() -> DocumentPath {
        DocumentPath(
            frames.compactMap { frame -> DocumentPath.Component? in
                guard frame.position > 0 else { return nil }
                if frame.isDictionary {
                    let index = frame.keyBase + frame.position - 1
                    return keys.indices.contains(index) ? .key(keys[index]) : nil
                }
                return .index(frame.position - 1)
            })
    }

    /// Keys read lately, by object: records share their key objects, so most
    /// keys are read once (a direct-mapped cache: one entry per `object % 64`).
    private var keyCache = [(object: Int, key: String)](repeating: (-1, ""), count: 64)

    /// A dictionary key: must be a string object.
    /// Each use counts against the expansion allowance, as a value does.
    private mutating func key(_ object: Int) throws(VettedError) -> String {
        let slot = object & 63
        let key: String
        if keyCache[slot].object == object {
            key = keyCache[slot].key
        } else {
            key = try readKey(object)
            keyCache[slot] = (object, key)
        }
        guard budget.chargeValue(payload: key.utf8.count) else {
            throw error(.amplificationLimitExceeded, at: offset(of: object), budget.exceededMessage, path: currentPath())
        }
        return key
    }

    private func readKey(_ object: Int) throws(VettedError) -> String {
        let offset = offset(of: object)
        let header = try header(at: offset)
        let value: PlistValue
        do {
            value = try Self.scalar(scanner, header, at: offset, limits: limits)
        } catch {
            throw self.error(error.code, at: error.offset, error.message, path: currentPath())
        }
        guard case .string(let key) = value else {
            throw error(.nonStringKey, at: offset, "dictionary key is not a string", path: currentPath())
        }
        return key
    }

    private static func scalar(_ scanner: ByteScanner, _ header: ObjectHeader, at offset: Int, limits: Limits) throws(Failure) -> PlistValue {
        let info = Int(header.marker & 0x0F)
        switch header.marker >> 4 {
        case 0x0:
            switch header.marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Failure(code: .invalidObjectMarker, offset: offset, message: "null and fill objects have no plist value")
            }
        case 0x1:
            return .integer(try integer(scanner, size: 1 << info, at: header.payload))
        case 0x2:
            if info == 2 {
                return .real(Double(Float(bitPattern: UInt32(scanner.bigEndianInteger(at: header.payload, size: 4)))))
            }
            return .real(Double(bitPattern: scanner.bigEndianInteger(at: header.payload, size: 8)))
        case 0x3:
            let seconds = Double(bitPattern: scanner.bigEndianInteger(at: header.payload, size: 8))
            guard seconds.isFinite else { throw Failure(code: .invalidDate, offset: offset, message: "date is not a finite number of seconds") }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            try checkStringBytes(header.length, at: offset, limits: limits)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(header.length)
            scanner.appendBytes(header.payload..<header.end, to: &bytes)
            return .data(Data(bytes))
        case 0x5:
            try checkStringBytes(header.length, at: offset, limits: limits)
            guard scanner.isASCII(header.payload..<header.end) else {
                throw Failure(code: .invalidUTF8, offset: offset, message: "ASCII string object holds a byte above 0x7F")
            }
            return .string(scanner.string(header.payload..<header.end))
        case 0x6:
            return .string(try utf16String(scanner, header, at: offset, limits: limits))
        case 0x8:
            return .uid(scanner.bigEndianInteger(at: header.payload, size: info + 1))
        default:
            throw Failure(code: .invalidObjectMarker, offset: offset, message: "unknown object marker")
        }
    }

    private static func integer(_ scanner: ByteScanner, size: Int, at position: Int) throws(Failure) -> PlistInteger {
        switch size {
        case 1, 2, 4:
            return .signed(Int64(scanner.bigEndianInteger(at: position, size: size)))
        case 8:
            return .signed(Int64(bitPattern: scanner.bigEndianInteger(at: position, size: 8)))
        default:
            // 16 bytes, two's complement: representable when the high half is a sign extension.
            let high = scanner.bigEndianInteger(at: position, size: 8)
            let low = scanner.bigEndianInteger(at: position + 8, size: 8)
            if high == 0 { return PlistInteger(low) }
            if high == .max, low >= 1 << 63 { return .signed(Int64(bitPattern: low)) }
            throw Failure(code: .integerOutOfRange, offset: position - 1, message: "128-bit integer outside the 64-bit range")
        }
    }

    private static func checkStringBytes(_ bytes: Int, at offset: Int, limits: Limits) throws(Failure) {
        guard bytes <= limits.maxStringBytes else {
            throw Failure(code: .stringLengthLimitExceeded, offset: offset, message: "\(bytes) bytes; the limit is \(limits.maxStringBytes)")
        }
    }

    /// UTF-16BE → String, transcoded straight to UTF-8; an unpaired surrogate is an error.
    private static func utf16String(_ scanner: ByteScanner, _ header: ObjectHeader, at offset: Int, limits: Limits) throws(Failure) -> String {
        // At most three UTF-8 bytes per unit: check the limit before allocating.
        let (worstCase, overflow) = header.length.multipliedReportingOverflow(by: 3)
        if overflow || worstCase > limits.maxStringBytes {
            var exact = 0
            var index = 0
            while index < header.length {
                let unit = scanner.bigEndianInteger(at: header.payload + 2 * index, size: 2)
                exact += unit < 0x80 ? 1 : unit < 0x800 ? 2 : (0xD800...0xDFFF).contains(unit) ? 2 : 3
                index += 1
            }
            try checkStringBytes(exact, at: offset, limits: limits)
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(Swift.min(worstCase, limits.maxStringBytes))
        var index = 0
        while index < header.length {
            let position = header.payload + 2 * index
            var scalar = UInt32(scanner.bigEndianInteger(at: position, size: 2))
            index += 1
            if scalar < 0x80 {
                utf8.append(UInt8(truncatingIfNeeded: scalar))
                continue
            }
            switch scalar {
            case 0xD800...0xDBFF:
                let low = UInt32(scanner.bigEndianInteger(at: position + 2, size: 2))
                guard index < header.length, (0xDC00...0xDFFF).contains(low) else {
                    throw Failure(code: .invalidUTF16, offset: position, message: "unpaired UTF-16 surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                index += 1
            case 0xDC00...0xDFFF:
                throw Failure(code: .invalidUTF16, offset: position, message: "unpaired UTF-16 surrogate")
            default:
                break
            }
            UTF8Sequence.append(scalar, to: &utf8)
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    // MARK: Errors

    private func error(
        _ code: VettedError.Code, at offset: Int, _ message: String, path: DocumentPath = DocumentPath(), related: Int? = nil
    ) -> VettedError {
        VettedError(code, at: offset, in: source, path: path, message: message, relatedOffset: related)
    }

    private func invalidMarker(_ marker: UInt8, at offset: Int) -> VettedError {
        error(.invalidObjectMarker, at: offset, "unknown object marker 0x\(Excerpt.hex(UInt32(marker), digits: 2))")
    }

    private func truncated(at offset: Int) -> VettedError {
        error(.truncatedObject, at: offset, "object at offset \(offset) runs past the object area")
    }
}
