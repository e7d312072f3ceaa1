// The umbrella module: `import Vetted` brings in every stage.
@_exported public import VettedCore
@_exported public import VettedJSON
@_exported public import VettedPlist
@_exported public import VettedRaw
@_exported public import VettedArchive
@_exported public import VettedRules
@_exported public import VettedJSONSchema
