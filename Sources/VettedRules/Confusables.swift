/// Look-alike characters, for telling when a host only *looks* like an allowed one.
///
/// A small table of the letters used in real homograph attacks: Cyrillic and
/// Greek letters that render like Latin ones, and fullwidth forms. The
/// skeleton of a label maps each to its Latin look-alike, so `exаmple` (with
/// a Cyrillic а) has the skeleton `example`.
enum Confusables {
    static let latinLookAlikes: [Unicode.Scalar: Character] = [
        // Cyrillic
        "\u{0430}": "a", "\u{0435}": "e", "\u{043E}": "o", "\u{0440}": "p", "\u{0441}": "c", "\u{0443}": "y",
        "\u{0445}": "x", "\u{0456}": "i", "\u{0458}": "j", "\u{0455}": "s", "\u{0501}": "d", "\u{04BB}": "h",
        "\u{0410}": "a", "\u{0415}": "e", "\u{041E}": "o", "\u{0420}": "p", "\u{0421}": "c", "\u{0425}": "x",
        "\u{0432}": "b", "\u{043A}": "k", "\u{043C}": "m", "\u{043D}": "h", "\u{0442}": "t", "\u{0475}": "v",
        // Greek
        "\u{03BF}": "o", "\u{03B1}": "a", "\u{03BD}": "v", "\u{03B9}": "i", "\u{03BA}": "k", "\u{03C1}": "p",
        "\u{03C4}": "t", "\u{03C5}": "u", "\u{03C7}": "x", "\u{03B5}": "e",
        // Latin look-alikes outside ASCII
        "\u{0131}": "i", "\u{0261}": "g", "\u{1E9B}": "f", "\u{00F8}": "o", "\u{0269}": "i",
    ]

    /// `label` with every look-alike replaced by its Latin letter, and
    /// fullwidth ASCII folded to ASCII.
    static func skeleton(_ label: String) -> String {
        var result = ""
        for scalar in label.unicodeScalars {
            if let latin = latinLookAlikes[scalar] {
                result.append(latin)
            } else if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                result.unicodeScalars.append(ascii)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result.lowercased()
    }

    enum Script { case latin, cyrillic, greek, other }

    static func script(of scalar: Unicode.Scalar) -> Script? {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: return .latin
        case 0x400...0x52F: return .cyrillic
        case 0x370...0x3FF: return .greek
        default: return .other
        }
    }

    /// Whether one label mixes Latin with Cyrillic or Greek letters.
    static func mixesScripts(_ label: String) -> Bool {
        Set(label.unicodeScalars.compactMap(script(of:))).count > 1
    }
}

/// RFC 3492 Punycode decoding (the part after `xn--`), bounded and overflow-checked.
enum Punycode {
    static func decode(_ input: String) -> String? {
        let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
        let bytes = Array(input.utf8)
        guard bytes.count <= 63, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [UInt32] = []
        var rest = bytes[...]
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<delimiter].map(UInt32.init)
            rest = bytes[(delimiter + 1)...]
        }
        var n = 128, i = 0, bias = 72
        var index = rest.startIndex
        func digit(_ byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
            default: nil
            }
        }
        while index < rest.endIndex {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < rest.endIndex, let d = digit(rest[index]) else { return nil }
                index += 1
                let (product, overflow1) = d.multipliedReportingOverflow(by: w)
                let (sum, overflow2) = i.addingReportingOverflow(product)
                guard !overflow1, !overflow2 else { return nil }
                i = sum
                let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                if d < t { break }
                let (nextW, overflow3) = w.multipliedReportingOverflow(by: base - t)
                guard !overflow3 else { return nil }
                w = nextW
                k += base
            }
            let length = output.count + 1
            var delta = oldI == 0 ? (i - oldI) / damp : (i - oldI) / 2
            delta += delta / length
            k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            bias = k + (base - tMin + 1) * delta / (delta + skew)
            let (nextN, overflow) = n.addingReportingOverflow(i / length)
            guard !overflow, nextN <= 0x10FFFF else { return nil }
            n = nextN
            i %= length
            output.insert(UInt32(n), at: i)
            i += 1
            guard output.count <= 63 else { return nil }
        }
        var scalars = String.UnicodeScalarView()
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
