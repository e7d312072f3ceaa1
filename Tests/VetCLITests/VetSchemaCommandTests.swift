import Foundation
import Testing

@Suite struct VetSchemaCommandTests {
    static func files(schema: String, instance: String) throws -> (schema: String, instance: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vet-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let schemaPath = folder.appendingPathComponent("schema.json").path
        let instancePath = folder.appendingPathComponent("instance.json").path
        try Data(schema.utf8).write(to: URL(fileURLWithPath: schemaPath))
        try Data(instance.utf8).write(to: URL(fileURLWithPath: instancePath))
        return (schemaPath, instancePath)
    }

    @Test func eachErrorIsLocatedAndTheExitCodeSaysInvalid() throws {
        let paths = try Self.files(schema: #"{"properties": {"price": {"minimum": 0}}, "required": ["id"]}"#, instance: "{\"price\": -5}")
        let result = try Vet.run(["schema", paths.schema, paths.instance, "--diagnostics", "json"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // A node's members are evaluated before what counts them (`required`): the order the bytes come in.
        #expect(lines.first?.contains(#""code":"minimum","message":"must be at least 0","path":"$.price","offset":10,"line":1,"column":11"#) == true)
        #expect(lines.last?.contains(#""code":"required","message":"the required property \"id\" is missing","path":"$","offset":0"#) == true)
    }

    @Test func aValidDocumentPrintsValid() throws {
        let paths = try Self.files(schema: #"{"type": "object"}"#, instance: "{}")
        let result = try Vet.run(["schema", paths.schema, paths.instance])
        #expect(result.status == 0)
        #expect(result.stdout == "valid\n")
    }

    @Test func aSchemaThatDoesNotCompileIsReportedAgainstTheSchema() throws {
        let paths = try Self.files(schema: ##"{"$ref": "#/$defs/none"}"##, instance: "{}")
        let result = try Vet.run(["schema", paths.schema, paths.instance, "--diagnostics", "json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""file":"\#(paths.schema)","error":{"code":"unresolvableReference""#))
    }
}
