import SQLiteSwiftly
import Testing

@testable import SQLiteSwiftlyModelGenerator

/// Each table feature a model cannot declare becomes a note (a line in the comment above the type and a name in
/// the summary); what a model does declare does not.
@Suite struct SchemaNotesTests {
    /// The notes of table `t` created by `schema`, as (summary, detail) pairs.
    func notes(_ schema: String, table: String = "t") throws -> [SchemaNote] {
        let db = try Connection.inMemory()
        try db.executeScript(SQL(verbatim: schema))
        let reader = SchemaReader(connection: db)
        let entry = try #require(try reader.entries().first { $0.name == table })
        return try reader.table(entry).notes
    }

    @Test(
        "each feature gives one note with the clause as written",
        arguments: [
            ("CREATE TABLE t (k TEXT PRIMARY KEY) WITHOUT ROWID", "WITHOUT ROWID", "WITHOUT ROWID"),
            ("CREATE TABLE t (k INT) STRICT", "STRICT", "STRICT"),
            ("CREATE TABLE t (n INT CHECK (n > 0))", #"CHECK on "n""#, #"CHECK (n > 0) on "n""#),
            ("CREATE TABLE t (a INT, b INT, CHECK (a < b))", "CHECK", "CHECK (a < b)"),
            ("CREATE TABLE t (a INT, CONSTRAINT ordered CHECK (a\n  > 0))", "CHECK", "CHECK (a > 0)"),
            (
                "CREATE TABLE t (name TEXT NOT NULL ON CONFLICT REPLACE)", #"NOT NULL ON CONFLICT REPLACE on "name""#,
                #"NOT NULL ON CONFLICT REPLACE on "name""#
            ),
            (
                "CREATE TABLE t (a INT, PRIMARY KEY (a) ON CONFLICT IGNORE)", #"PRIMARY KEY ("a") ON CONFLICT IGNORE"#,
                #"PRIMARY KEY ("a") ON CONFLICT IGNORE"#
            ),
            (
                "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE t (p INT REFERENCES p DEFERRABLE INITIALLY DEFERRED)",
                #"deferred foreign key on "p""#,
                #"REFERENCES p DEFERRABLE INITIALLY DEFERRED on "p" (checked at commit)"#
            ),
            (
                "CREATE TABLE p (a INT, b INT, PRIMARY KEY (a, b)); CREATE TABLE t (x INT, y INT, FOREIGN KEY (x, y) REFERENCES p ON DELETE CASCADE)",
                #"foreign key ("x", "y")"#, #"FOREIGN KEY ("x", "y") REFERENCES "p" ("a", "b") ON DELETE CASCADE"#
            ),
            ("CREATE TABLE t (a INT, b INT, UNIQUE (a, b))", #"UNIQUE ("a", "b")"#, #"UNIQUE ("a", "b")"#),
            (
                "CREATE TABLE t (a INT); CREATE INDEX big ON t (a) WHERE a > 10", #"partial index "big""#,
                "partial index: CREATE INDEX big ON t (a) WHERE a > 10"
            ),
            (
                "CREATE TABLE t (a TEXT); CREATE INDEX low ON t (lower(a))", #"expression index "low""#,
                "expression index: CREATE INDEX low ON t (lower(a))"
            ),
            (
                "CREATE TABLE t (a INT); CREATE INDEX recent ON t (a DESC)", #"descending index "recent""#,
                "descending index: CREATE INDEX recent ON t (a DESC)"
            ),
            (
                "CREATE TABLE t (a TEXT); CREATE INDEX folded ON t (a COLLATE NOCASE)", #"collated index "folded""#,
                "collated index: CREATE INDEX folded ON t (a COLLATE NOCASE)"
            ),
            (
                "CREATE TABLE t (a INT); CREATE TRIGGER stamp AFTER INSERT ON t BEGIN SELECT 1; END",
                #"trigger "stamp""#,
                #"trigger "stamp": AFTER INSERT ON t"#
            ),
            (
                "CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a * 2) STORED)", #"generated column "b""#,
                #"generated column "b" INT AS (a * 2) STORED (it cannot be written, so it is not a property)"#
            ),
            (
                "CREATE TABLE t (at TEXT DEFAULT CURRENT_TIMESTAMP)", #"DEFAULT on "at""#,
                #""at" DEFAULT CURRENT_TIMESTAMP"#
            ),
        ])
    func oneNote(schema: String, summary: String, detail: String) throws {
        let notes = try notes(schema)
        #expect(notes == [SchemaNote(summary, detail: detail)])
    }

    @Test("what a model declares gives no note: keys, single-column UNIQUE, foreign keys, plain indexes, literals")
    func declaredFeatures() throws {
        let notes = try notes(
            """
            CREATE TABLE p (id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE TABLE t (
                a INTEGER NOT NULL UNIQUE, b TEXT DEFAULT 'x', c REAL DEFAULT -1.5, d BLOB DEFAULT X'00',
                e INT REFERENCES p (id) ON DELETE SET NULL NOT DEFERRABLE, g TEXT COLLATE BINARY,
                PRIMARY KEY (a, b)
            );
            CREATE INDEX plain ON t (b, c); CREATE UNIQUE INDEX single ON t (d);
            """)
        #expect(notes.isEmpty, "\(notes)")
    }

    @Test("clauses inside strings, comments, defaults and other clauses are not taken for clauses of their own")
    func clausesInsideOtherText() throws {
        let notes = try notes(
            """
            CREATE TABLE t (
                -- a comment: CHECK (no) COLLATE NOCASE
                "note" TEXT DEFAULT 'CHECK (x) COLLATE y', /* CHECK (z) */
                [bracketed name] INT CHECK (CAST([bracketed name] AS TEXT) <> 'a' COLLATE NOCASE),
                `tick` TEXT DEFAULT (upper('AS (1)'))
            )
            """)
        #expect(
            notes.map(\.detail) == [
                #""tick" DEFAULT upper('AS (1)')"#,
                #"CHECK (CAST([bracketed name] AS TEXT) <> 'a' COLLATE NOCASE) on "bracketed name""#,
            ])
    }

    @Test("a composite foreign key checked at commit and a UNIQUE constraint with a conflict clause are one note each")
    func combinedClauses() throws {
        let notes = try notes(
            """
            CREATE TABLE p (a INT, b INT, PRIMARY KEY (a, b));
            CREATE TABLE t (
                x INT, y INT,
                CONSTRAINT link FOREIGN KEY (x, y) REFERENCES p (a, b) DEFERRABLE INITIALLY DEFERRED,
                UNIQUE (y, x) ON CONFLICT REPLACE
            )
            """)
        #expect(
            notes.map(\.detail) == [
                #"FOREIGN KEY ("x", "y") REFERENCES "p" ("a", "b") DEFERRABLE INITIALLY DEFERRED (checked at commit)"#,
                #"UNIQUE ("y", "x") ON CONFLICT REPLACE"#,
            ])
        #expect(
            notes.map(\.summary) == [#"deferred foreign key ("x", "y")"#, #"UNIQUE ("y", "x") ON CONFLICT REPLACE"#])
    }

    @Test("a view's notes are its triggers; a table's type comment lists its notes, wrapped")
    func viewTriggersAndComment() throws {
        let db = try Connection.inMemory()
        try db.executeScript(
            """
            CREATE TABLE t (a INT CHECK (a > 0)); CREATE VIEW v AS SELECT a FROM t;
            CREATE TRIGGER "v insert" INSTEAD OF INSERT ON v BEGIN INSERT INTO t VALUES (NEW.a); END;
            """)
        let view = try SchemaReader(connection: db).view(named: "v")
        #expect(
            view.notes == [SchemaNote(#"trigger "v insert""#, detail: #"trigger "v insert": INSTEAD OF INSERT ON v"#)])
        let lines = ModelRenderer().typeComment(view, typeName: "V")
        #expect(lines.last == #"/// - trigger "v insert": INSTEAD OF INSERT ON v"#)
        let wrapped = ModelRenderer.wrap(
            String(repeating: "word ", count: 40), prefix: "/// - ", continuation: "///   ")
        #expect(wrapped.count == 2 && wrapped.allSatisfy { $0.count <= ModelRenderer.lineWidth })
        #expect(wrapped[1].hasPrefix("///   word"))
    }

    @Test("the tokenizer keeps quoted text whole and skips comments")
    func tokenizer() {
        let tokens = SQLTokenizer.tokens(in: #"a "b ""c""" 'd''e' [f g] `h` -- x"# + "\n/* y */ (1.5)")
        #expect(tokens.map(\.text) == ["a", #""b ""c""""#, "'d''e'", "[f g]", "`h`", "(", "1", ".", "5", ")"])
        #expect(tokens.map(\.identifier).prefix(5) == ["a", #"b "c""#, "'d''e'", "f g", "h"])
        #expect(tokens[2].kind == .string && tokens[1].kind == .quotedIdentifier && tokens[5].kind == .symbol)
        #expect(SQLTokenizer.tokens(in: "'unterminated").map(\.text) == ["'unterminated"])
        #expect(SQLTokenizer.tokens(in: "/* open").isEmpty)
        #expect(TableDefinition(sql: "CREATE TABLE t AS SELECT 1 CHECK").checks.isEmpty)
        #expect(TableDefinition(sql: "not sql at all (").checks.isEmpty)
    }
}
