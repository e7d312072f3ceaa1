// `import VettedVapor` brings in Vetted and Vapor.
@_exported public import Vapor
@_exported public import Vetted
