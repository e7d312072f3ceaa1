@_spi(Scanning) import VettedCore

// One reader for a stream's records: set anew for each record, and holding nothing of a
// record between records.

extension JSONReader {
    /// This validate-mode reader, set for new bytes as a new reader of them would be, with
    /// its arrays' capacity and its caches kept (a cache gives the string its bytes make,
    /// whatever input they are in): a stream's records are read by one reader, re-armed.
    /// Every stored property is set here; `ReaderRearmTests` compares a re-armed reader
    /// with a new one, property by property, so that a new property cannot be forgotten.
    mutating func rearm(scanner: ByteScanner, source: SourceText) {
        self.scanner = scanner
        self.source = source
        buildValues = false
        maxDepth = limits.effectiveMaxDepth
        embedded = false
        baseDepth = 0
        tape = JSONTape()
        top = Frame(isObject: false, start: 0, valueBase: 0, keyBase: 0, keyRefBase: 0, tapeIndex: 0)
        if !frames.isEmpty { frames.removeAll(keepingCapacity: true) }
        depth = 0
        if !values.isEmpty { values.removeAll(keepingCapacity: true) }
        if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }
        if !keyRefs.isEmpty { keyRefs.removeAll(keepingCapacity: true) }
        valueCount = 0
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        if !keyIndexes.isEmpty { keyIndexes = [:] }
        if !duplicates.isEmpty { duplicates.removeAll(keepingCapacity: true) }
    }

    /// Holds no pointer into the bytes just read, nor the bytes (a reader parked between a
    /// stream's records).
    mutating func releaseInput() {
        scanner = .empty
        source = SourceText([])
    }
}
