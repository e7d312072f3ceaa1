// What the API speaks in: errors and limits (VettedCore), JSON values (VettedJSON),
// validation modes and patterns (VettedRules). `import VettedJSONSchema` is enough.
@_exported public import VettedCore
@_exported public import VettedJSON
@_exported public import VettedRules
