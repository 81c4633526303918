// Re-exports the core library, so `import SQLiteSwiftlyMacros` is the only import a model file needs.
@_exported import SQLiteSwiftly

// The package trait `Macros` (on by default) builds the macro plugin and swift-syntax; without it, say so here
// rather than let every use of @Table fail to find the plugin.
#if !Macros
    #error(
        "SQLiteSwiftlyMacros needs the package trait \"Macros\": depend on SQLiteSwiftly with its default traits, or add \"Macros\" to its traits"
    )
#endif
