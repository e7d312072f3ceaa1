extension ProblemDetails {
    /// The problem for an instance a ``VettedJSONSchema/JSONSchema`` refused; `nil` when it is valid.
    ///
    /// Bytes that did not parse are 400 (`syntax`), as ``init(_:)`` gives for the parser's
    /// error; a well-formed instance that breaks the schema is 422 (`rules`) with one entry
    /// per error: the instance location as `pointer` and `path`, the keyword as `code`, and
    /// the keyword's values and `schemaLocation` as `parameters`. Errors past the cap are
    /// one `moreErrors` entry.
    public init?(_ report: JSONSchemaReport) {
        guard !report.isValid else { return nil }
        if !report.isWellFormed, let error = report.errors.first {
            self.init(.syntax, errors: [Entry(error, stage: .syntax)])
            return
        }
        var entries = report.errors.map { Entry($0, stage: .rules) }
        if report.moreErrors > 0 {
            entries.append(
                Entry(
                    pointer: "", path: "$", code: "moreErrors", stage: FailureStage.rules.rawValue,
                    detail: "\(report.moreErrors) more errors not listed"))
        }
        self.init(.rules, errors: entries)
    }
}
