/// The byte reader's working arrays, empty, and its document: made once per call, or once
/// per stream and handed from one record to the next (the arrays keep their capacity, each
/// bounded by one record; the document is made on the first record).
struct DirectBuffers {
    var keyRanges: [Range<Int>]
    var containers: [DirectContainer]
    var objects: [DirectObject]
    /// The byte reader's document (``DecodingDocument/init(directReadingUnder:duplicateKeys:)``),
    /// once made: it holds the options of the call or stream, and no record's state.
    var document: DecodingDocument?

    /// Room for a small body's keys and containers, so that the arrays do not grow one
    /// reallocation at a time.
    init() {
        keyRanges = []
        containers = []
        objects = []
        keyRanges.reserveCapacity(16)
        containers.reserveCapacity(8)
    }

    init(keyRanges: [Range<Int>], containers: [DirectContainer], objects: [DirectObject], document: DecodingDocument?) {
        self.keyRanges = keyRanges
        self.containers = containers
        self.objects = objects
        self.document = document
    }
}
