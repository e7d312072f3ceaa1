/// `Optional`, told apart at run time: its empty value.
package protocol AbsentOptional {
    static var absent: Self { get }
}

extension Optional: AbsentOptional {
    package static var absent: Self { nil }
}
