import Foundation
import RHRJSON
import Testing

/// The one members reader: typed members, the null-means-absent convention, and errors that carry their path.
@Suite("JSONMembers: typed members with JSON paths")
struct JSONMembersTests {
    let object = JSONMembers(try! JSONParser.parse(#"""
        {"name":"Oura","empty":"","count":57,"ratio":57.5,"flag":true,"none":null,
         "inner":{"deep":{"id":7}},"list":[1,2],"rows":[{"a":1},{"a":"x"}],"words":["a",""]}
        """#).object!, path: "record")

    @Test func readsEachTypeAndTreatsNullAsAbsent() throws {
        #expect(try object.requiredString("name") == "Oura")
        #expect(try object.string("empty") == "")
        #expect(try object.integer("count") == 57)
        #expect(try object.number("count") == 57)
        #expect(try object.number("ratio") == 57.5)
        #expect(try object.bool("flag") == true)
        #expect(try object.string("none") == nil)
        #expect(try object.string("absent") == nil)
        #expect(try object.stringOrNull("none") == nil)
        #expect(try object.array("list")?.count == 2)
        #expect(try object.requiredMembers("inner").requiredMembers("deep").requiredInteger("id") == 7)
        #expect(try object.strings("words", nonEmpty: false) == ["a", ""])
    }

    @Test func errorsNameThePathAndWhatWasFound() {
        func error(_ read: (JSONMembers) throws -> Any?) -> JSONPathError? {
            do {
                _ = try read(object)
                return nil
            } catch {
                return error as? JSONPathError
            }
        }
        #expect(error { try $0.requiredString("absent") } == JSONPathError(path: "record.absent", "missing"))
        #expect(error { try $0.requiredString("absent", why: "every record has one") }?.description
                == "record.absent: missing; every record has one")
        #expect(error { try $0.requiredString("none") } == JSONPathError(path: "record.none", "expected a string, found null"))
        #expect(error { try $0.requiredString("empty") } == JSONPathError(path: "record.empty", "must not be empty"))
        #expect(error { try $0.integer("ratio") } == JSONPathError(path: "record.ratio", "expected an integer, found a number"))
        #expect(error { try $0.bool("count") } == JSONPathError(path: "record.count", "expected true or false, found an integer"))
        #expect(error { try $0.members("list") } == JSONPathError(path: "record.list", "expected an object, found an array"))
        #expect(error { try $0.requiredMembers("inner").requiredMembers("deep").requiredString("id") }
                == JSONPathError(path: "record.inner.deep.id", "expected a string, found an integer"))
        #expect(error { try $0.objects("list") } == JSONPathError(path: "record.list[0]", "expected an object, found an integer"))
        #expect(error { try $0.requiredObjects("rows").map { try $0.requiredInteger("a") } }
                == JSONPathError(path: "record.rows[1].a", "expected an integer, found a string"))
        #expect(error { try $0.strings("words") } == JSONPathError(path: "record.words[1]", "must not be empty"))
        #expect(error { try $0.decode("name", "a known app") { $0.string == "Fitbit" ? 1 : nil } }
                == JSONPathError(path: "record.name", "expected a known app, found a string"))
    }

    @Test func theDocumentItselfHasNoPath() throws {
        let top = JSONMembers(["store": 1])
        #expect(top.error("store", "bad").description == "store: bad")
        #expect(throws: JSONPathError(path: "", "expected an object, found an array")) { try JSONMembers([1, 2], path: "") }
    }
}
