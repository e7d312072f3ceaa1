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

    /// bplist fuzzer, timeout-c7102ced (210 bytes): arrays sharing their two
    /// children level after level expand to 65,539 values, under the fuzz
    /// target's limit then (100,000; now 30,000). Bounded by `maxValues` and the amplification budget;
    /// the fuzz run's 3-second timeout came from a loaded machine (0.7 s of CPU
    /// in the ASan build for the target's seven passes). Counted here exactly.
    @Test func fuzzerDiscoveredSharedArraysExpandWithinTheLimits() throws {
        let bytes = Array(Data(base64Encoded: "YnBsaXN0MDCiIQGiAgKiAwNBBASiBQWiBgaiBQeiCKIJCAmiCgqiCwuiDAyiDQ2iDgaiDw+iEBCiERGiEhKiExOiFBSiFRWiFhaiFxeiGBiiGRmiGhqiGxuiHByiHR2iHh6iHx+iICCiISGiIiKiIyOiJCSiJSWiJiaiJyeiKCgJCAsRGhQOFx0gIyYpLC87M0FENT44a25xdHd6fYBHSk1QU1ZZXF9iZWhrbnF0d3p9gAAAAAAAAAEBAAAAAAAAACkAAAAAAAAAAAAAAAAAAACB") ?? Data())
        #expect(bytes.count == 210)
        func count(_ value: PlistValue) -> Int {
            var total = 0
            var pending = [value]
            while let next = pending.popLast() {
                total += 1
                if case .array(let elements) = next { pending += elements }
            }
            return total
        }
        let value = try PlistParser(limits: Limits(maxValues: 100_000)).parse(bytes)
        #expect(count(value) == 65_539)
        let error = thrownError { () throws(VettedError) in _ = try PlistParser(limits: Limits(maxValues: 65_538)).parse(bytes) }
        #expect(error?.code == .valueLimitExceeded)
        #expect(try PlistParser().parse(PlistWriter.binary(value)) == value)
    }

    /// bplist fuzzer, timeout-218d24f7 (202 bytes): the same shape with a
    /// damaged trailer and one array emptied, 66,079 values. After it the
    /// target's value limit went from 100,000 to 30,000 (FuzzPlist.swift says
    /// why), which refuses both inputs at once.
    @Test func fuzzerDiscoveredSharedArraysWithAnEmptyOne() throws {
        let bytes = Array(Data(base64Encoded: "YnBsaXN0MDCiBBMAAAAAAAAABASiBQWiBgaiBweiCAigCQmiCgqiCwuiDAyiDQ2iDg6iDw+iEBCiERGiEhKiExOiFBSiFRWiFhaiFxeiCBiiGRmiGhqiGxuiHCSiHR2iHh6iHx+iICCiISGiIiKiIyOiJCSiJSWB8yaiJyeiKCgJCAsOERQXGh0gIyYpLC8yNTg7PkFER0pZTV9WUFNxYlxraHd0bmV6fYAAAAALDhEBAQAAAAAAAAApAAAAAAAAAAAAAAAAAAAAgQ==") ?? Data())
        #expect(bytes.count == 202)
        var total = 0
        var pending = [try PlistParser(limits: Limits(maxValues: 100_000)).parse(bytes)]
        while let next = pending.popLast() {
            total += 1
            if case .array(let elements) = next { pending += elements }
        }
        #expect(total == 66_079)
        let error = thrownError { () throws(VettedError) in _ = try PlistParser(limits: Limits(maxValues: 30_000)).parse(bytes) }
        #expect(error?.code == .valueLimitExceeded)
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
