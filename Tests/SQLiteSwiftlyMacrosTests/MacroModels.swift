import SQLiteSwiftlyMacros

// Models used by the end-to-end tests. Extension macros need file-scope types, so they live here.

/// Most features at once: a primary key, a renamed column, a keyword name, optionals, a blob, a transient,
/// a computed and a static property.
@Table("planets")
struct MacroPlanet: Equatable {
    @TableColumn(primaryKey: true) var id: Int64
    var name: String
    @TableColumn("orbit_au") var orbit: Double
    var moons: Int?
    var `default`: Bool
    var photo: [UInt8]?
    @Transient var isSelected = false
    var label: String { "\(name) (\(id))" }
    static let earth = MacroPlanet(id: 3, name: "Earth", orbit: 1.0, moons: 1, default: true, photo: [1, 2])
}

/// The table name defaults to the type name.
@Table
struct Comet: Equatable {
    var designation: String
    var period: Double?
}

/// Constraints: auto-increment, unique, default, foreign key, and a declared index.
@Table("moons", indexes: [TableIndex("moons_by_name", on: ["name"])])
struct MacroMoon: Equatable {
    @TableColumn(primaryKey: true, autoIncrement: true) var id: Int64
    @TableColumn(unique: true) var name: String
    @TableColumn(default: 0) var craters: Int
    @TableColumn("planet_id", references: ForeignKey("planets", "id", onDelete: .cascade)) var planetID: Int64
}

/// A composite primary key, several bindings in one declaration and a `didSet` observer (still stored).
@Table("visits")
struct Visit: Equatable {
    @TableColumn(primaryKey: true) var planet: Int64
    @TableColumn(primaryKey: true) var day: Int
    var hours, minutes: Int
    var note: String = "" {
        didSet { noteEdits += 1 }
    }
    @Transient var noteEdits = 0
}

/// A public model: the generated members must be public for the conformance to compile.
@Table
public struct PublicProbe: Equatable {
    /// The probe's id.
    public var id: Int64
    /// The probe's name.
    public var name: String
}

/// A model that declares its own table name; the macro generates the rest.
@Table
struct Asteroid: Equatable {
    static let tableName = "minor_bodies"
    var id: Int64
    let name: String
}

/// A hand-written model, used next to the derived ones.
struct HandPlanet: TableModel, Equatable {
    var id: Int64
    var name: String
    static let tableName = "hand_planets"
    static let columns = [Column("id", Int64.self, primaryKey: true), Column("name", String.self)]
    init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
    init(row: borrowing Row) throws {
        id = try row[0]
        name = try row[1]
    }
    func encode(to encoder: inout RowEncoder) throws {
        try encoder.encode(id)
        try encoder.encode(name)
    }
}

/// A nested model: the extension names the qualified type.
enum Catalog {
    @Table("stars")
    struct Star: Equatable {
        var name: String
        var magnitude: Double
    }
}

/// A struct that already declares the conformance: the macro adds only the members.
@Table("already")
struct AlreadyConforming: TableModel, Equatable {
    var id: Int64
}

/// What ``Tag``'s record hook refuses.
enum TagError: Error, Equatable {
    case empty
}

/// A derived model with a record hook of its own: the macro leaves `willSave()` to the struct.
@Table("tags")
struct Tag: Equatable {
    @TableColumn(primaryKey: true) var id: Int64
    var name: String

    mutating func willSave() throws {
        name = name.lowercased()
        guard !name.isEmpty else { throw TagError.empty }
    }
}

/// JSON storage: an array, an optional dictionary, a nested struct and an optional set.
@Table("recipes")
struct MacroRecipe: Equatable {
    /// A nested value, stored as a JSON object.
    struct Nutrition: Codable, Equatable {
        var calories: Int
        var per100g: Double
    }

    @TableColumn(primaryKey: true) var id: Int64
    @TableColumn(storage: .json) var steps: [String]
    @TableColumn(storage: .json) var ratings: [String: Int]?
    @TableColumn(storage: .json) var nutrition: Nutrition
    @TableColumn("labels", unique: true, storage: .json) var labels: Set<String>?
}
