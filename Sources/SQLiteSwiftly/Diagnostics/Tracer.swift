import CSQLiteSwiftly

/// One executed statement, as reported to a trace hook.
public struct TraceEvent: Sendable {
    /// The SQL text: as written, or with bound values expanded when the hook asked for it.
    public var sql: String
    /// How long the statement ran, as measured by SQLite.
    public var duration: Duration
}

/// Holds the trace hook while tracing is on; SQLite's callback gets an unretained pointer to it.
///
/// A hook may run SQL on its own connection (to log into a table, say). Those statements are not traced:
/// reporting them would call the hook again from inside itself, without end.
final class Tracer {
    let expanded: Bool
    let hook: (TraceEvent) -> Void
    private var isReporting = false

    init(expanded: Bool, hook: @escaping (TraceEvent) -> Void) {
        self.expanded = expanded
        self.hook = hook
    }

    func report(statement: OpaquePointer, nanoseconds: Int64) {
        guard !isReporting else { return }
        isReporting = true
        defer { isReporting = false }
        let text: String
        if expanded, let expandedSQL = sqlite3_expanded_sql(statement) {
            text = String(cString: expandedSQL)
            sqlite3_free(expandedSQL)
        } else if let plain = sqlite3_sql(statement) {
            text = String(cString: plain)
        } else {
            text = ""
        }
        hook(TraceEvent(sql: text, duration: .nanoseconds(nanoseconds)))
    }
}

extension Connection {
    /// Installs or removes a hook that receives every statement this connection runs, with its duration.
    ///
    /// Tracing is off by default and costs nothing then: no SQLite hook is registered. The hook runs on the
    /// connection's thread, after each statement finishes (`SQLITE_TRACE_PROFILE`). Statements the hook itself
    /// runs on this connection are not traced. A hook that captures the connection keeps it alive until
    /// tracing is turned off.
    ///
    /// ```swift
    /// db.trace { event in print("\(event.duration) \(event.sql)") }
    /// db.trace(nil)  // off again
    /// ```
    ///
    /// - Parameters:
    ///   - expanded: Whether to report the SQL with bound values written in. They may be private data: leave it
    ///     `false` for logs that leave the device.
    ///   - hook: The hook, or `nil` to stop tracing.
    public func trace(expanded: Bool = false, _ hook: ((TraceEvent) -> Void)?) {
        guard let hook else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            tracer = nil
            return
        }
        let tracer = Tracer(expanded: expanded, hook: hook)
        self.tracer = tracer
        // The connection keeps the tracer alive as long as the hook is registered.
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, duration in
                guard let context, let statement, let duration else { return 0 }
                let tracer = Unmanaged<Tracer>.fromOpaque(context).takeUnretainedValue()
                tracer.report(
                    statement: OpaquePointer(statement), nanoseconds: duration.load(as: Int64.self))
                return 0
            }, Unmanaged.passUnretained(tracer).toOpaque())
    }
}
