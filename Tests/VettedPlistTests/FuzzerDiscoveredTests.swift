import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedPlist

/// Inputs that once crashed a fuzz target, kept so they never do again.
@Suite struct FuzzerDiscoveredTests {
    /// bplist fuzzer, crash-e21639d0: a binary plist whose date holds about 10^28
    /// seconds (a bit flip in the sample listing). Reading it is fine;
    /// the XML writer trapped converting it to Int. Now it is a typed error.
    @Test func fuzzerDiscoveredHugeDateInTheXMLWriter() throws {
        let bytes = Array(Data(base64Encoded: "YnBsaXN0MDDYAQIDBAUGBwgJCgsMDQ4PEFRuYW1lVXByaWNlVHRhZ3NUc29sZFdjcmVhdGVkVGJsb2JVcmF0aW9TcmVmVkd1aXRhchAqohESCDNFwKBiVgAAAEMBAgMjP9wAAAAAAACAB1VtdXNpY1d2aW50YWdlCBkeJCkuNjtBRUxOUVJbX2hqcAAAAAAAAAEBAAAAAAAAABMAAAAAAAAAAAAAAAAAAAB4") ?? Data())
        let value = try PlistParser().parse(bytes)
        guard case .date(let date)? = value["created"] else {
            Issue.record("expected a date")
            return
        }
        #expect(date.timeIntervalSince1970 > 1e28)
        let error = thrownError { () throws(VettedError) in _ = try PlistWriter.xml(value) }
        #expect(error?.code == .unrepresentableValue)
        #expect(try PlistParser().parse(PlistWriter.binary(value)) == value)
    }

    @Test func xmlDatesCoverYearsOneTo9999() throws {
        let first = Date(timeIntervalSince1970: -62_135_596_800)
        let last = Date(timeIntervalSince1970: 253_402_300_799)
        #expect(try PlistWriter.xmlDateText(first) == "0001-01-01T00:00:00Z")
        #expect(try PlistWriter.xmlDateText(last) == "9999-12-31T23:59:59Z")
        for outside in [first.addingTimeInterval(-1), last.addingTimeInterval(1), Date(timeIntervalSince1970: -1e300)] {
            #expect(throws: VettedError(code: .unrepresentableValue)) { try PlistWriter.xmlDateText(outside) }
        }
    }
}
