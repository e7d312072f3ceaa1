/// What a decoder learned about each type during one call (its rules, how it
/// decodes): looked up once per type and call, because casts to protocols are
/// slow. The last few types are kept in a short list, most recent first, so a
/// model's own few types are found without hashing; the rest in a dictionary.
/// Bounded by the program's types, never by the input. One call's, never
/// shared: both decoders (the JSON tape, the property list) keep theirs in it.
///
/// Public only so that each decoder's module can inline it (a generic call into
/// another module stays unspecialized); not API.
@_documentation(visibility: private)
public struct _TypeMemo<Info> {
    @usableFromInline var recent: [(type: ObjectIdentifier, info: Info)] = []
    @usableFromInline var known: [ObjectIdentifier: Info] = [:]

    @inlinable public init() {}

    /// What was learned about the type `id`, if it is one of the last few (no hashing).
    @inlinable
    public func recentInfo(_ id: ObjectIdentifier) -> Info? {
        for index in recent.indices where recent[index].type == id { return recent[index].info }
        return nil
    }

    /// What was learned about the type `id`, made by `learn` the first time; it becomes the most recent.
    @inlinable
    public mutating func info(_ id: ObjectIdentifier, learn: () -> Info) -> Info {
        let found: Info
        if let info = known[id] {
            found = info
        } else {
            found = learn()
            known[id] = found
        }
        if recent.count >= 4 { recent.removeLast() }
        recent.insert((id, found), at: 0)
        return found
    }
}
