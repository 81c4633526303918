import Observation

/// A query's current result, kept up to date on the main actor: what an app's screen or model holds to show data
/// that changes.
///
/// A live query wraps a ``QueryObservation``. It fetches when its value is first read, then again after each
/// committed transaction that changed what the query read, and publishes each result through the Observation
/// framework: a SwiftUI view that reads ``value`` redraws when it changes, and so does anything that reads it inside
/// `withObservationTracking`.
///
/// ```swift
/// @MainActor @Observable final class NoteList {
///     let notes: LiveQuery<[Note]>
///
///     init(database: ConnectionPool) {
///         notes = LiveQuery(database.observe(Note.self, "SELECT * FROM notes ORDER BY title"))
///     }
/// }
/// ```
///
/// - **Value and loading.** ``value`` is the last result, or the initial value until the first fetch ends;
///   ``isLoading`` says which. Arrays and optionals start empty and `nil`; other types take an `initialValue`.
/// - **Duplicates.** Made from an observation with ``QueryObservation/removingDuplicates()``, a live query
///   publishes only results that differ from the one before, so a commit that leaves the result as it was redraws
///   nothing.
/// - **Errors.** A fetch that throws sets ``error`` and leaves ``value`` as it was. Observation goes on: the next
///   commit to the database (to any table, since a failed fetch does not say what it read) runs the fetch again,
///   and a fetch that succeeds clears ``error``. So a query over a table that a migration has not created yet
///   recovers when the migration commits.
/// - **Lifetime.** Nothing runs until ``value``, ``isLoading`` or ``error`` is first read, so a live query
///   made and dropped at once (a SwiftUI `@State` initial value that is not kept) costs nothing. It stops when it
///   is released, and holds its shared connection or pool weakly, as the observation does: when that goes away,
///   the value stays and nothing more is fetched. The fetch closure must not capture the live query's holder,
///   which would keep both alive.
///
/// Results are published on the main actor, where SwiftUI and most app models live; fetches run on the
/// connections' threads, never on the main actor. For work off the main actor, iterate the ``QueryObservation``
/// itself.
@MainActor
public final class LiveQuery<Value: Sendable>: Observable {
    private let registrar = ObservationRegistrar()
    private let observation: QueryObservation<Value>
    private var current: Value
    private var loading = true
    private var lastError: (any Error)?
    /// The task that iterates the observation, from the first read on.
    private(set) var task: Task<Void, Never>?

    /// Creates a live query that shows the results of an observation.
    ///
    /// Nothing is fetched until ``value``, ``isLoading`` or ``error`` is first read.
    ///
    /// - Parameters:
    ///   - observation: The query and how it is observed, made by ``SharedConnection/observe(options:_:)`` or
    ///     ``ConnectionPool/observe(options:_:)`` (or their model-and-SQL forms), optionally with
    ///     ``QueryObservation/removingDuplicates()``.
    ///   - initialValue: The value until the first fetch ends.
    public nonisolated init(_ observation: QueryObservation<Value>, initialValue: Value) {
        self.observation = observation
        current = initialValue
    }

    deinit {
        task?.cancel()
    }

    /// The last result of the query, or the initial value while ``isLoading``.
    ///
    /// Reading it starts the live query. After a fetch throws, it keeps the last result (see ``error``).
    public var value: Value {
        startIfNeeded()
        registrar.access(self, keyPath: \.value)
        return current
    }

    /// Whether nothing has been fetched yet: `true` until the first fetch ends, with a result or an error.
    public var isLoading: Bool {
        startIfNeeded()
        registrar.access(self, keyPath: \.isLoading)
        return loading
    }

    /// The error of the last fetch, or `nil` when it succeeded.
    ///
    /// A fetch that throws (an SQL error, a value that does not decode, the fetch closure's own error) is kept
    /// here, and observation goes on: the next commit runs the fetch again, and a fetch that succeeds sets this
    /// back to `nil`.
    public var error: (any Error)? {
        startIfNeeded()
        registrar.access(self, keyPath: \.error)
        return lastError
    }

    /// Starts iterating the observation, once.
    private func startIfNeeded() {
        guard task == nil else { return }
        var observation = observation
        observation.continuesAfterErrors = true
        // The task holds the live query weakly, so that releasing it cancels the task in `deinit`.
        task = Task { [weak self] in
            var iterator = observation.makeAsyncIterator()
            while true {
                let result: Result<Value, any Error>
                do {
                    guard let value = try await iterator.next() else { return }
                    result = .success(value)
                } catch {
                    result = .failure(error)
                }
                guard let self else { return }
                self.publish(result)
            }
        }
    }

    /// Publishes a fetch's result or error.
    private func publish(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value):
            registrar.withMutation(of: self, keyPath: \.value) { current = value }
            if lastError != nil {
                registrar.withMutation(of: self, keyPath: \.error) { lastError = nil }
            }
        case .failure(let error):
            registrar.withMutation(of: self, keyPath: \.error) { lastError = error }
        }
        if loading {
            registrar.withMutation(of: self, keyPath: \.isLoading) { loading = false }
        }
    }
}

extension LiveQuery where Value: RangeReplaceableCollection {
    /// Creates a live query of a collection, empty until the first fetch ends.
    ///
    /// ```swift
    /// let planets = LiveQuery(pool.observe(Planet.self, "SELECT * FROM planets ORDER BY name"))
    /// ```
    ///
    /// - Parameter observation: The query and how it is observed.
    public nonisolated convenience init(_ observation: QueryObservation<Value>) {
        self.init(observation, initialValue: Value())
    }
}

extension LiveQuery where Value: ExpressibleByNilLiteral {
    /// Creates a live query of an optional value, such as one row, `nil` until the first fetch ends.
    ///
    /// ```swift
    /// let earth = LiveQuery(pool.observe { db in try db.fetchOne(Planet.self, where: "name = 'Earth'") })
    /// ```
    ///
    /// - Parameter observation: The query and how it is observed.
    public nonisolated convenience init(_ observation: QueryObservation<Value>) {
        self.init(observation, initialValue: nil)
    }
}
