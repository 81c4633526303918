#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Conformances of Foundation's value types: Date (TEXT), UUID (BLOB), URL (TEXT) and Decimal (TEXT).

extension Date: SQLiteValueConvertible {
    /// Dates are declared `TEXT`.
    public static var declaredType: DeclaredType { .text }

    /// Reads TEXT of the form `YYYY-MM-DD HH:MM:SS.SSS` (UTC).
    ///
    /// The forms SQLite writes are accepted too: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`,
    /// `T` instead of the space, any number of fraction digits, and a `Z` or `±HH:MM` suffix.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes (numbers are not guessed to
    ///   be Unix or Julian times) and for text that is not such a date.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        try self.init(dateText: try stored.string())
    }

    /// Converts TEXT as ``init(stored:)`` does.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes and malformed text.
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .text(let text) = sqliteValue else {
            throw .conversion("expected TEXT date, found \(sqliteValue.storageClass)")
        }
        try self.init(dateText: text)
    }

    @usableFromInline init(dateText: String) throws(SQLiteError) {
        self.init(timeIntervalSinceReferenceDate: try DateText.parse(dateText))
    }

    /// The date as UTC text with as many fraction digits as it takes to read back the same `Date`.
    public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) { .text(try DateText.format(sinceReferenceDate: timeIntervalSinceReferenceDate)) }
    }

    /// Binds the date's text.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for dates outside the years 0000 to 9999.
    public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        do {
            try slot.bind(try DateText.format(sinceReferenceDate: timeIntervalSinceReferenceDate))
        } catch {
            throw error.kind == .conversionFailed ? slot.failure(error.message) : error
        }
    }
}

extension UUID: SQLiteValueConvertible {
    /// UUIDs are declared `BLOB` and stored as their 16 bytes.
    public static var declaredType: DeclaredType { .blob }

    /// Reads a 16-byte BLOB, or TEXT in the 36-character form (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, any
    /// case) for tables written by other programs.
    ///
    /// - Parameter stored: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for blobs of another size, malformed text, numbers and
    ///   NULL.
    @inlinable public init(stored: borrowing StoredValue) throws(SQLiteError) {
        if stored.storageClass == .text {
            try self.init(uuidText: try stored.string())
        } else {
            try self.init(uuidBytes: try stored.bytes())
        }
    }

    /// Converts a 16-byte BLOB or UUID TEXT.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other values.
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .blob(let bytes): try self.init(uuidBytes: bytes)
        case .text(let text): try self.init(uuidText: text)
        default: throw .conversion("expected BLOB UUID, found \(sqliteValue.storageClass)")
        }
    }

    @usableFromInline init(uuidText text: String) throws(SQLiteError) {
        guard let uuid = UUID(uuidString: text) else { throw .conversion("stored TEXT is not a UUID") }
        self = uuid
    }

    @usableFromInline init(uuidBytes bytes: [UInt8]) throws(SQLiteError) {
        guard bytes.count == 16 else {
            throw .conversion("expected a 16-byte BLOB for UUID, found \(bytes.count) bytes")
        }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        self.init(uuid: value)
    }

    /// The 16 bytes as a BLOB.
    public var sqliteValue: SQLiteValue {
        .blob(withUnsafeBytes(of: uuid) { Array($0) })
    }

    /// Binds the 16 bytes as a blob.
    ///
    /// - Parameter slot: The parameter to bind.
    /// - Throws: ``SQLiteError/Kind/parameterMismatch`` for a missing parameter.
    @inlinable public func bind(to slot: borrowing ParameterSlot) throws(SQLiteError) {
        let result = withUnsafeBytes(of: uuid) { bytes in
            Result { () throws(SQLiteError) in try slot.bind(bytes: bytes) }
        }
        try result.get()
    }
}

extension URL: SQLiteValueConvertible {
    /// URLs are declared `TEXT` and stored as their `absoluteString`.
    public static var declaredType: DeclaredType { .text }

    /// Converts TEXT that `URL(string:)` accepts as it is.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for other storage classes, text that is not a URL, and
    ///   text that `URL` would change (by percent-encoding a space or a non-ASCII character, say).
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .text(let text) = sqliteValue else {
            throw .conversion("expected TEXT URL, found \(sqliteValue.storageClass)")
        }
        guard !text.isEmpty, let url = URL(string: text) else { throw .conversion("stored TEXT is not a URL") }
        // URL(string:) may repair the text (percent-encoding a space, say); what is stored is read as it is, or not
        // at all. What the library stores, an absoluteString, reads back unchanged.
        guard url.absoluteString == text else {
            throw .conversion("stored TEXT is not a valid URL as it is (URL would change it to \(url.absoluteString))")
        }
        self = url
    }

    /// The URL's `absoluteString` as TEXT.
    public var sqliteValue: SQLiteValue { .text(absoluteString) }
}

extension Decimal: SQLiteValueConvertible {
    /// Decimals are declared `TEXT`, so that SQLite keeps every digit (a `NUMERIC` or `REAL` column would
    /// round them to a double). Compare and sort them in Swift: SQL compares the text.
    public static var declaredType: DeclaredType { .text }

    /// Converts TEXT holding a decimal number (`-12.340`, `1e-3`), or an INTEGER.
    ///
    /// - Parameter sqliteValue: The stored value.
    /// - Throws: ``SQLiteError/Kind/conversionFailed`` for REAL (already rounded), BLOB, NULL, text that is
    ///   not a number, and a number with more significant digits than `Decimal` holds (38).
    public init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .integer(let value):
            self.init(value)
        case .text(let text):
            guard let number = DecimalDigits(text), let value = Decimal(string: text, locale: nil) else {
                throw .conversion("stored TEXT is not a decimal number")
            }
            // Decimal keeps 38 significant digits and parses longer text by dropping the rest.
            guard DecimalDigits(value.description) == number else {
                throw .conversion("stored TEXT \(text) has more significant digits than Decimal holds")
            }
            self = value
        default:
            throw .conversion("expected TEXT decimal, found \(sqliteValue.storageClass)")
        }
    }

    /// The decimal's digits as TEXT; NaN is refused.
    public var sqliteValue: SQLiteValue {
        get throws(SQLiteError) {
            guard !isNaN else { throw .conversion("a NaN Decimal cannot be stored") }
            return .text(description)
        }
    }
}
