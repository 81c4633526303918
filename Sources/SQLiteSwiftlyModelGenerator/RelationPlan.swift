/// A relation a generated model declares, from a single-column foreign key of the schema: a static property such
/// as `static let customer = ToOneRelation<Order, Customer>.belongsTo(via: "CustomerID")`.
///
/// Every foreign key between two generated tables gives two relations: the row it references, on the table that
/// holds it (`belongsTo`, named after the column without its `ID`: `CustomerID` → `customer`; `follower` →
/// `followerPerson` for a column without one), and the rows that reference a row, on the referenced table (`hasMany`, named after the referencing table: `orders`). A table
/// whose primary key is exactly two such columns links the two tables it references: each gets the other's rows
/// through it (`hasMany(through:)`, named after the other table). Where a table has several keys to the same
/// table, or refers to itself, the names say through which column (`employeesViaManagerID`). The foreign key's
/// column is always written out (`via:`, `from:`, `to:`), so that a key added later does not change what the
/// relation means.
struct RelationPlan: Hashable {
    /// The static property's name, unique among the type's members.
    var name: String
    /// The property's value.
    var declaration: String
    /// Its doc comment, without the `///`.
    var documentation: String
    /// Where it goes among the type's relations: the rows its keys reference first, then the rows that reference
    /// it, then the rows linked to it.
    var rank: Int

    /// The relations of each generated table, by the table's SQL name (ASCII case folded).
    static func plans(for named: [(schema: TableSchema, typeName: String)]) -> [String: [RelationPlan]] {
        let tables = named.filter { $0.schema.kind == .table }
        var types: [String: (schema: TableSchema, typeName: String)] = [:]
        for table in tables { types[table.schema.name.nameKey] = table }
        var plans: [String: [RelationPlan]] = [:]
        var taken: [String: Set<String>] = [:]
        func add(_ name: String, on table: String, rank: Int, _ declaration: String, _ documentation: String) {
            let key = table.nameKey
            if taken[key] == nil, let schema = types[key]?.schema {
                taken[key] = Set(PropertyPlan.plans(for: schema).map(\.name) + ["tableName", "columns", "indexes"])
            }
            let unique = SwiftIdentifier.unique(name, in: &taken[key, default: []])
            plans[key, default: []].append(
                RelationPlan(name: unique, declaration: declaration, documentation: documentation, rank: rank))
        }
        for (child, childType) in tables {
            // Keys to a generated table and a column it has: the relations a fetch can resolve.
            let keys = child.columns.compactMap { column in
                column.references.flatMap { reference in
                    types[reference.table.nameKey].flatMap { parent in
                        parent.schema.columns.contains { $0.name.nameKey == reference.column.nameKey }
                            ? (column, reference, parent) : nil
                    }
                }
            }
            for (column, reference, (parent, parentType)) in keys {
                let via = SwiftLiteral.string(column.name)
                let sameTarget = keys.filter { $0.1.table.nameKey == reference.table.nameKey }.count > 1
                let selfReference = child.name.nameKey == parent.name.nameKey
                add(
                    belongsToName(column.name, referencing: parentType), on: child.name, rank: 0,
                    "ToOneRelation<\(childType), \(parentType)>.belongsTo(via: \(via))",
                    "The \(SwiftLiteral.string(parent.name)) row that \(via) references.")
                let children = SwiftIdentifier.propertyName(for: child.name)
                add(
                    sameTarget || selfReference
                        ? children + "Via" + SwiftIdentifier.typeName(for: column.name) : children,
                    on: parent.name, rank: 1, "ToManyRelation<\(parentType), \(childType)>.hasMany(via: \(via))",
                    "The \(SwiftLiteral.string(child.name)) rows whose \(via) references this row.")
            }
            // A link table: its primary key is two foreign keys.
            let primaryKey = child.columns.filter(\.isPrimaryKey)
            guard primaryKey.count == 2, keys.count >= 2,
                let first = keys.first(where: { $0.0.name == primaryKey[0].name }),
                let second = keys.first(where: { $0.0.name == primaryKey[1].name })
            else { continue }
            for (from, to) in [(first, second), (second, first)] {
                let (fromTable, fromType) = from.2
                let (toTable, toType) = to.2
                var name = SwiftIdentifier.propertyName(for: toTable.name)
                if fromTable.name.nameKey == toTable.name.nameKey {
                    name += "Via" + SwiftIdentifier.typeName(for: to.0.name)
                }
                add(
                    name, on: fromTable.name, rank: 2,
                    "ToManyRelation<\(fromType), \(toType)>.hasMany(through: \(childType).self, from: "
                        + "\(SwiftLiteral.string(from.0.name)), to: \(SwiftLiteral.string(to.0.name)))",
                    "The \(SwiftLiteral.string(toTable.name)) rows that \(SwiftLiteral.string(child.name)) links to "
                        + "this row.")
            }
        }
        // Sorted by rank, keeping the schema's order within one (the sort is stable).
        return plans.mapValues { relations in
            relations.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
        }
    }

    /// `customer` for `CustomerID` or `customer_id`: the column's property name without a last word `ID`. A
    /// column without one is a property of that name already: `followerPerson` for `follower`, which references
    /// the type `Person`.
    static func belongsToName(_ column: String, referencing type: String) -> String {
        var words = SwiftIdentifier.words(in: column)
        guard words.count > 1, words.last?.lowercased() == "id" else {
            return SwiftIdentifier.propertyName(for: column) + type
        }
        words.removeLast()
        return SwiftIdentifier.propertyName(for: words.joined(separator: " "))
    }
}
