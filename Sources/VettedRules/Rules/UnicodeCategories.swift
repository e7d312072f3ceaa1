/// Unicode general categories as sorted, disjoint scalar ranges, for `\p{…}` in a
/// ``LinearPattern``: computed once, on first use, from the standard library's
/// Unicode data (the Unicode version of the Swift runtime).
enum UnicodeCategories {
    /// The ranges of `name`: a one- or two-letter category (`L`, `Lu`, `Nd`) or its long
    /// name (`Letter`, `Uppercase_Letter`, `Decimal_Number`); `nil` for any other name.
    static func ranges(named name: String) -> [ClosedRange<UInt32>]? {
        guard let categories = groups[name] else { return nil }
        var result: [ClosedRange<UInt32>] = []
        for category in categories { result += table[category] ?? [] }
        return LinearPattern.CharacterSet.normalized(result)
    }

    private static let table: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = {
        var table: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = [:]
        var start: UInt32 = 0
        var current: Unicode.GeneralCategory?
        var value: UInt32 = 0
        while value <= 0x10FFFF {
            let category = Unicode.Scalar(value)?.properties.generalCategory
            if category != current {
                if let current, value > 0 { table[current, default: []].append(start...(value - 1)) }
                current = category
                start = value
            }
            value += 1
        }
        if let current { table[current, default: []].append(start...0x10FFFF) }
        return table
    }()

    private static let groups: [String: [Unicode.GeneralCategory]] = {
        let leaves: [(String, String, Unicode.GeneralCategory)] = [
            ("Lu", "Uppercase_Letter", .uppercaseLetter), ("Ll", "Lowercase_Letter", .lowercaseLetter),
            ("Lt", "Titlecase_Letter", .titlecaseLetter), ("Lm", "Modifier_Letter", .modifierLetter), ("Lo", "Other_Letter", .otherLetter),
            ("Mn", "Nonspacing_Mark", .nonspacingMark), ("Mc", "Spacing_Mark", .spacingMark), ("Me", "Enclosing_Mark", .enclosingMark),
            ("Nd", "Decimal_Number", .decimalNumber), ("Nl", "Letter_Number", .letterNumber), ("No", "Other_Number", .otherNumber),
            ("Pc", "Connector_Punctuation", .connectorPunctuation), ("Pd", "Dash_Punctuation", .dashPunctuation),
            ("Ps", "Open_Punctuation", .openPunctuation), ("Pe", "Close_Punctuation", .closePunctuation),
            ("Pi", "Initial_Punctuation", .initialPunctuation), ("Pf", "Final_Punctuation", .finalPunctuation),
            ("Po", "Other_Punctuation", .otherPunctuation), ("Sm", "Math_Symbol", .mathSymbol), ("Sc", "Currency_Symbol", .currencySymbol),
            ("Sk", "Modifier_Symbol", .modifierSymbol), ("So", "Other_Symbol", .otherSymbol), ("Zs", "Space_Separator", .spaceSeparator),
            ("Zl", "Line_Separator", .lineSeparator), ("Zp", "Paragraph_Separator", .paragraphSeparator), ("Cc", "Control", .control),
            ("Cf", "Format", .format), ("Cs", "Surrogate", .surrogate), ("Co", "Private_Use", .privateUse), ("Cn", "Unassigned", .unassigned),
        ]
        let wholes: [(String, String)] = [
            ("L", "Letter"), ("M", "Mark"), ("N", "Number"), ("P", "Punctuation"), ("S", "Symbol"), ("Z", "Separator"), ("C", "Other"),
        ]
        var groups: [String: [Unicode.GeneralCategory]] = [:]
        for (short, long, category) in leaves {
            groups[short] = [category]
            groups[long] = [category]
            groups[String(short.prefix(1)), default: []].append(category)
        }
        for (short, long) in wholes { groups[long] = groups[short] }
        groups["LC"] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]
        groups["Cased_Letter"] = groups["LC"]
        return groups
    }()
}
