import Testing
@testable import VettedCore
import VettedTestSupport

@Suite struct OrderedMembersTests {
    @Test func keysAndValuesOfUnequalLengthAreCutToTheShorter() {
        let members = OrderedMembers(keys: ["a", "b", "c"], values: [1, 2])
        #expect(members.keys == ["a", "b"])
        #expect(members.values == [1, 2])
        #expect(members["c"] == nil)
    }

    @Test func setReplacesInPlaceAppendsOrRemovesEveryMemberOfAKey() {
        var members = OrderedMembers(keys: ["a", "b", "a"], values: [1, 2, 3])
        #expect(members["a"] == 1)  // the first member of a key
        members["b"] = 20
        members["c"] = 4
        #expect(members.keys == ["a", "b", "a", "c"])
        #expect(members.values == [1, 20, 3, 4])
        members["a"] = nil
        #expect(members.keys == ["b", "c"])
        #expect(members.values == [20, 4])
    }

    /// Past the linear-search limit the map is indexed; appends extend the index and a
    /// copy made before a change keeps its own answers.
    @Test(arguments: [SmallKeyTable.linearSearchLimit, SmallKeyTable.linearSearchLimit + 1, 500])
    func largeMapsAnswerEveryKeyAfterAppendsAndRemovals(count: Int) {
        var members = OrderedMembers<Int>()
        for index in 0..<count { members["k\(index)"] = index }
        let copy = members
        #expect((0..<count).allSatisfy { members["k\($0)"] == $0 })
        members["extra"] = -1
        members["k0"] = nil
        #expect(members["extra"] == -1)
        #expect(members["k0"] == nil)
        #expect(members.position(of: "k1") == 0)
        #expect(copy["k0"] == 0)
        #expect(copy["extra"] == nil)
        #expect(copy.count == count)
    }

    @Test func pairsIgnoreMemberOrderButNotTheOrderWithinAKey() throws {
        let left = OrderedMembers(keys: ["a", "b", "a"], values: [1, 2, 3])
        let right = OrderedMembers(keys: ["b", "a", "a"], values: [2, 1, 3])
        let pairs = try #require(left.pairs(with: right))
        #expect(pairs.allSatisfy { $0.0 == $0.1 })
        #expect(pairs.count == 3)
        #expect(OrderedMembers(keys: ["a", "b"], values: [1, 2]).pairs(with: OrderedMembers(keys: ["a", "c"], values: [1, 2])) == nil)
        #expect(OrderedMembers(keys: ["a", "a"], values: [1, 2]).pairs(with: OrderedMembers(keys: ["a", "b"], values: [1, 2])) == nil)
    }

    @Test func memberHashSumIgnoresOrder() {
        let hash: (Int, inout Hasher) -> Void = { value, hasher in hasher.combine(value) }
        let left = OrderedMembers(keys: ["a", "b"], values: [1, 2]).memberHashSum(hash)
        let right = OrderedMembers(keys: ["b", "a"], values: [2, 1]).memberHashSum(hash)
        #expect(left == right)
    }

    /// Each policy on a small map (keys compared pairwise) and a large one (hashed).
    @Test(arguments: [3, 40])
    func duplicateKeyPoliciesKeepTheFirstPlace(count: Int) throws {
        let keys = ["dup"] + (1..<count).map { "k\($0)" } + ["dup"]
        let values = Array(0...count)
        let members = OrderedMembers(keys: keys, values: values)

        let first = try members.applying(.keepFirst)
        #expect(first.keys == Array(keys.dropLast()))
        #expect(first["dup"] == 0)
        let last = try members.applying(.keepLast)
        #expect(last.keys == Array(keys.dropLast()))
        #expect(last["dup"] == count)
        #expect(last.values.dropFirst() == values.dropFirst().dropLast())

        #expect(throws: RepeatedKey.self) { try members.applying(.reject) }
        do {
            _ = try members.applying(.reject)
        } catch {
            #expect(error.key == "dup")
            #expect(error.first == 0)
            #expect(error.position == count)
        }

        let distinct = OrderedMembers(keys: Array(keys.dropLast()), values: Array(values.dropLast()))
        #expect(try distinct.applying(.reject).keys == distinct.keys)
    }
}
