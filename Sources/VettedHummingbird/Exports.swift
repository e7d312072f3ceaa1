// `import VettedHummingbird` brings in Vetted and Hummingbird.
@_exported public import Hummingbird
@_exported public import Vetted
