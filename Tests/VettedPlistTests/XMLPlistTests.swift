import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedPlist

@Suite struct XMLPlistTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    func parse(_ text: String, limits: Limits = Limits()) throws(VettedError) -> PlistValue {
        try PlistParser(limits: limits).parse(Array(text.utf8))
    }

    func expect(
        _ text: String, _ code: VettedError.Code, at offset: Int? = nil, limits: Limits = Limits(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let error = thrownError({ () throws(VettedError) in _ = try parse(text, limits: limits) }, sourceLocation: sourceLocation)
        #expect(error?.code == code, "\(error?.description ?? "no error")", sourceLocation: sourceLocation)
        if let offset { #expect(error?.offset == offset, sourceLocation: sourceLocation) }
    }

    @Test func everyElementType() throws {
        let value = try parse(
            Self.header + """
                <plist version="1.0">
                <dict>
                	<key>s</key><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600;<![CDATA[<raw & text>]]></string>
                	<key>i</key><integer>-9223372036854775808</integer>
                	<key>u</key><integer>18446744073709551615</integer>
                	<key>h</key><integer>0x1F</integer>
                	<key>r</key><real>2.5e3</real>
                	<key>t</key><true/>
                	<key>f</key><false/>
                	<key>d</key><date>2018-06-04T09:41:00Z</date>
                	<key>b</key><data>
                	AQID
                	BA==
                	</data>
                	<key>e</key><string/>
                	<key>a</key><array/>
                	<key>uid</key><dict><key>CF$UID</key><integer>3</integer></dict>
                </dict>
                </plist>
                """)
        #expect(value["s"] == .string("a <b> & \"c\" 'd' é😀<raw & text>"))
        #expect(value["i"] == .integer(.signed(.min)))
        #expect(value["u"] == .integer(.unsigned(.max)))
        #expect(value["h"] == .integer(.signed(31)))
        #expect(value["r"] == .real(2500))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["d"] == .date(Date(timeIntervalSince1970: 1_528_105_260)))
        #expect(value["b"] == .data(Data([1, 2, 3, 4])))
        #expect(value["e"] == .string(""))
        #expect(value["a"] == .array([]))
        #expect(value["uid"] == .uid(3))
    }

    @Test func lineEndsAreNormalized() throws {
        #expect(try parse("<plist><string>a\r\nb\rc</string></plist>") == .string("a\nb\nc"))
        #expect(try parse("<plist><string>a&#13;b</string></plist>") == .string("a\rb"))
    }

    /// XXE: an external entity declared in an internal subset is refused at
    /// the subset, before any entity could be resolved.
    @Test func externalEntitiesAreRefused() {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <plist><string>&xxe;</string></plist>
            """
        expect(xxe, .unsupportedXMLFeature, at: 38)
    }

    /// Billion laughs: nested entity definitions are refused the same way,
    /// in time linear in the input.
    @Test func billionLaughsIsRefused() {
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        laughs += "]>\n<plist><string>&lol9;</string></plist>"
        expect(laughs, .unsupportedXMLFeature, at: 37)
    }

    @Test func undeclaredEntitiesAreErrors() {
        expect("<plist><string>&xxe;</string></plist>", .unknownEntity, at: 15)
        expect("<plist><string>&#0;</string></plist>", .malformedXML, at: 15)
        expect("<plist><string>a & b</string></plist>", .malformedXML, at: 17)
    }

    @Test func markupDeclarationsOutsideTheDoctypeAreRefused() {
        expect("<!ENTITY x \"y\"><plist><true/></plist>", .unsupportedXMLFeature, at: 0)
    }

    @Test func structureErrors() {
        expect("<plist><dict><string>x</string></dict></plist>", .unexpectedElement, at: 13)
        expect("<plist><dict><key>a</key></dict></plist>", .unexpectedElement, at: 25)
        expect("<plist><array><true/></dict></plist>", .malformedXML, at: 21)
        expect("<plist><foo/></plist>", .unexpectedElement, at: 7)
        expect("<plist><string>x</plist>", .malformedXML, at: 16)
        expect("<plist><true/><true/></plist>", .unexpectedElement, at: 14)
        expect("<plist><array>", .unexpectedEndOfInput)
        expect("<plist><true/></plist>junk", .trailingData, at: 22)
        expect("<plist>junk</plist>", .malformedXML, at: 7)
    }

    @Test func scalarErrors() {
        expect("<plist><integer>12x</integer></plist>", .invalidNumberText, at: 7)
        expect("<plist><integer>18446744073709551616</integer></plist>", .integerOutOfRange, at: 7)
        expect("<plist><integer>-9223372036854775809</integer></plist>", .integerOutOfRange, at: 7)
        expect("<plist><real>0x1p3</real></plist>", .invalidNumberText, at: 7)
        expect("<plist><date>2018-02-30T00:00:00Z</date></plist>", .invalidDate, at: 7)
        expect("<plist><date>2018-06-04 09:41:00</date></plist>", .invalidDate, at: 7)
        expect("<plist><data>AQ*D</data></plist>", .invalidBase64, at: 7)
        expect("<plist><data>A</data></plist>", .invalidBase64, at: 7)
        expect("<plist><string>\u{1}</string></plist>", .malformedXML, at: 15)
        expect("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><true/></plist>", .unsupportedEncoding, at: 0)
    }

    @Test func invalidUTF8IsAnError() {
        let bytes: [UInt8] = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        let error = thrownError { () throws(VettedError) in _ = try PlistParser().parse(bytes) }
        #expect(error == VettedError(code: .invalidUTF8, offset: 15))
    }

    @Test func limitsApply() {
        expect("<plist><array><array><true/></array></array></plist>", .depthLimitExceeded, at: 14, limits: Limits(maxDepth: 1))
        expect("<plist><array><true/><true/></array></plist>", .memberLimitExceeded, at: 21, limits: Limits(maxMembers: 1))
        expect("<plist><array><true/><true/></array></plist>", .valueLimitExceeded, at: 21, limits: Limits(maxValues: 2))
        expect("<plist><string>hello</string></plist>", .stringLengthLimitExceeded, at: 7, limits: Limits(maxStringBytes: 4))
        expect("<plist><integer>12345</integer></plist>", .numberLengthLimitExceeded, at: 7, limits: Limits(maxNumberLength: 4))
    }

    @Test func deepNestingIsADepthErrorNotAStackOverflow() {
        let deep = "<plist>" + String(repeating: "<array>", count: 100_000)
        expect(deep, .depthLimitExceeded, limits: .unlimited)
    }

    @Test func pathsPointIntoTheDocument() {
        let error = thrownError { () throws(VettedError) in
            _ = try parse("<plist><dict><key>tags</key><array><string>a</string><integer>x</integer></array></dict></plist>")
        }
        #expect(error?.path == [.key("tags"), .index(1)])
    }

    @Test func writerRefusesTextXMLCannotHold() {
        let error = thrownError { () throws(VettedError) in _ = try PlistWriter.xml(.string("bell\u{7}")) }
        #expect(error?.code == .unrepresentableValue)
    }
}
