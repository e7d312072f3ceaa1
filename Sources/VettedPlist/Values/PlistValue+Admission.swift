package import VettedCore

extension PlistValue {
    /// The value as a reader would have given it from bytes: nesting no deeper
    /// than `limits` allow (`depthLimitExceeded`), and in each dictionary the
    /// repeated keys handled as `policy` says (`duplicateKey`, or one kept as
    /// the readers keep it). The size limits bound what bytes expand into; a
    /// value in memory is already expanded, so they have nothing to bound.
    ///
    /// One walk without recursion, linear in the value; a second, building a
    /// new value, only when a kept repeat must be dropped.
    ///
    /// - Throws: `VettedError` with ``VettedCore/VettedError/Code/depthLimitExceeded`` or
    ///   ``VettedCore/VettedError/Code/duplicateKey``, at the path of the defect.
    package func admitted(limits: Limits, duplicateKeys policy: DuplicateKeyPolicy) throws(VettedError) -> PlistValue {
        let maxDepth = limits.effectiveMaxDepth
        // Each container open on the way down, and how far the walk is into it.
        struct Frame {
            let value: PlistValue
            var next = 0
        }
        var frames: [Frame] = []

        // The path to the child the walk is in (built only for an error).
        func path() -> DocumentPath {
            DocumentPath(
                frames.compactMap { frame -> DocumentPath.Component? in
                    let index = frame.next - 1
                    switch frame.value {
                    case .array: return .index(index)
                    case .dictionary(let dictionary) where dictionary.keys.indices.contains(index): return .key(dictionary.keys[index])
                    default: return nil
                    }
                })
        }

        /// Pushes a container; whether it is a dictionary with a key the policy keeps one of.
        func open(_ value: PlistValue) throws(VettedError) -> Bool {
            var repeats = false
            switch value {
            case .array: break
            case .dictionary(let dictionary):
                do throws(PlistDictionary.Repeat) {
                    repeats = try dictionary.applying(policy).count != dictionary.count
                } catch {
                    throw VettedError(
                        code: .duplicateKey, path: path().appending(.key(error.key)),
                        message: "key \"\(Excerpt.escape(error.key, quotes: false))\" appears twice in one dictionary")
                }
            default: return false
            }
            guard frames.count < maxDepth else {
                throw VettedError(code: .depthLimitExceeded, path: path(), message: "nesting is deeper than the limit of \(maxDepth)")
            }
            frames.append(Frame(value: value))
            return repeats
        }

        var repeats = try open(self)
        while let last = frames.indices.last {
            let position = frames[last].next
            let child: PlistValue?
            switch frames[last].value {
            case .array(let elements): child = elements.indices.contains(position) ? elements[position] : nil
            case .dictionary(let dictionary): child = dictionary.values.indices.contains(position) ? dictionary.values[position] : nil
            default: child = nil
            }
            guard let child else {
                frames.removeLast()
                continue
            }
            frames[last].next += 1
            if try open(child) { repeats = true }
        }
        guard repeats else { return self }
        let kept: PlistValue?
        do throws(PlistDictionary.Repeat) {
            kept = try keepingOneOfEachKey(policy)
        } catch {
            throw VettedError(
                code: .duplicateKey, path: [], message: "key \"\(Excerpt.escape(error.key, quotes: false))\" appears twice in one dictionary")
        }
        guard let kept else {
            throw VettedError(code: .internalInvariantViolated, message: "internal invariant violated: the fold of a value lost its place")
        }
        return kept
    }

    /// The value with each dictionary's repeated keys reduced to one under
    /// `policy` (a keeping one: the walk above threw for `.reject`); `nil` only if
    /// the fold's bookkeeping broke (a bug in Vetted, never a value kept unchanged).
    private func keepingOneOfEachKey(_ policy: DuplicateKeyPolicy) throws(PlistDictionary.Repeat) -> PlistValue? {
        try folded(
            entries: { dictionary throws(PlistDictionary.Repeat) in try dictionary.applying(policy) },
            leaf: { scalar throws(PlistDictionary.Repeat) in scalar.value }, array: { elements throws(PlistDictionary.Repeat) in .array(elements) },
            dictionary: { keys, values throws(PlistDictionary.Repeat) in .dictionary(PlistDictionary(OrderedMembers(keys: keys, values: values))) }
        )
    }
}
