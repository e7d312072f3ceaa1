public import VettedCore

/// Words a rule's violation for an app: given the violation's code and
/// parameters (``RuleViolation/parameters``), the text a person reads, or
/// `nil` to keep Vetted's English message. Set on a decoder
/// (`messageProvider`); the error's code, path and parameters stay as they are.
///
/// ```swift
/// decoder.messageProvider = { code, parameters in
///     code == .tooLong ? "Höchstens \(parameters["maximum"]?.description ?? "?") Zeichen" : nil
/// }
/// ```
public typealias RuleMessageProvider = @Sendable (_ code: VettedError.Code, _ parameters: [String: RuleParameter]) -> String?
