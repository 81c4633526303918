import Foundation
import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// The relations the generator declares from the schema's foreign keys, and what they load on the shop fixture.
@Suite struct GeneratedRelationsTests {
    @Test("the shop's generated relations load the rows its foreign keys link")
    func shopRelations() throws {
        let directory = try TemporaryDirectory()
        let db = try Connection(opening: ShopFixture.database(in: directory), readOnly: true)
        let orders = try db.fetchAll(Order.self, "SELECT * FROM Orders ORDER BY OrderID")
        #expect(
            try db.fetchRelated(Order.customer, of: orders).map { $0?.companyName } == [
                "Alpine Goods", "baker & sons", "Coral Reef Supplies",
            ])
        let products = try db.fetchRelated(Order.products, of: orders, orderBy: "Products.ProductID")
        #expect(products.map { $0.map(\.productID) } == [[1, 3], [2], [1, 4]])
        let lines = try db.fetchRelated(Order.orderDetails, of: orders)
        #expect(lines.map(\.count) == [2, 1, 2])
        let customers = try db.fetchAll(Customer.self, "SELECT * FROM Customers ORDER BY CustomerID")
        #expect(try db.fetchRelated(Customer.orders, of: customers).map(\.count) == [1, 1, 1, 0])
        let categories = try db.fetchAll(Category.self, "SELECT * FROM categories ORDER BY id")
        let byCategory = try db.fetchRelated(Category.products, of: categories)
        #expect(byCategory.map { $0.map(\.productID) } == [[1], [2], [3]])
        let all = try db.fetchAll(Product.self, "SELECT * FROM Products ORDER BY ProductID")
        #expect(try db.fetchRelated(Product.category, of: all).map { $0?.name } == ["Tea", "Coffee", "Biscuits", nil])
        #expect(try db.fetchRelated(Product.orders, of: all).map(\.count) == [2, 1, 1, 1])
    }

    @Test("keys to one table twice, and a table referring to itself, name the relation after the column")
    func names() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.database(
            schema: """
                CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                    mentor_id INTEGER REFERENCES people (id));
                CREATE TABLE messages (id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL REFERENCES people (id),
                    recipient_id INTEGER NOT NULL REFERENCES people (id), body TEXT NOT NULL);
                CREATE TABLE follows (follower INTEGER NOT NULL REFERENCES people (id),
                    followed INTEGER NOT NULL REFERENCES people (id), PRIMARY KEY (follower, followed));
                CREATE TABLE labels (id INTEGER PRIMARY KEY, people INTEGER REFERENCES missing (id),
                    owner INTEGER REFERENCES people ("nothing"));
                """)
        let source = try ModelGenerator(connection: Connection(opening: path, readOnly: true)).generate().source
        for line in [
            #"static let mentor = ToOneRelation<Person, Person>.belongsTo(via: "mentor_id")"#,
            #"static let peopleViaMentorID = ToManyRelation<Person, Person>.hasMany(via: "mentor_id")"#,
            #"static let sender = ToOneRelation<Message, Person>.belongsTo(via: "sender_id")"#,
            #"static let recipient = ToOneRelation<Message, Person>.belongsTo(via: "recipient_id")"#,
            #"static let messagesViaSenderID = ToManyRelation<Person, Message>.hasMany(via: "sender_id")"#,
            #"static let messagesViaRecipientID = ToManyRelation<Person, Message>.hasMany(via: "recipient_id")"#,
            #"static let followerPerson = ToOneRelation<Follow, Person>.belongsTo(via: "follower")"#,
            #"static let peopleViaFollowed = ToManyRelation<Person, Person>.hasMany("#,
            #"through: Follow.self, from: "follower", to: "followed")"#,
        ] {
            #expect(source.contains(line), "the output lacks \(line)")
        }
        // A key to a table or column that does not exist declares nothing.
        #expect(!source.contains("ToOneRelation<Label"))
        #expect(RelationPlan.belongsToName("CustomerID", referencing: "Customer") == "customer")
        #expect(RelationPlan.belongsToName("author_id", referencing: "Author") == "author")
        #expect(RelationPlan.belongsToName("ID", referencing: "Person") == "idPerson")
        #expect(RelationPlan.belongsToName("owner", referencing: "Person") == "ownerPerson")
    }

    @Test("a relation whose name a column property already has gets a number")
    func clashes() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.database(
            schema: """
                CREATE TABLE teams (id INTEGER PRIMARY KEY, books INTEGER);
                CREATE TABLE books (id INTEGER PRIMARY KEY, team INTEGER, team_id INTEGER REFERENCES teams (id),
                    captainTeam INTEGER, captain INTEGER REFERENCES teams (id));
                """)
        let source = try ModelGenerator(connection: Connection(opening: path, readOnly: true)).generate().source
        #expect(source.contains(#"static let team2 = ToOneRelation<Book, Team>.belongsTo(via: "team_id")"#))
        #expect(source.contains(#"static let captainTeam2 = ToOneRelation<Book, Team>.belongsTo(via: "captain")"#))
        #expect(source.contains(#"static let booksViaTeamID = ToManyRelation<Team, Book>.hasMany(via: "team_id")"#))
    }
}
