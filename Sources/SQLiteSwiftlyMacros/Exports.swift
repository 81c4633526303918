// Re-exports the core library, so `import SQLiteSwiftlyMacros` is the only import a model file needs.
@_exported import SQLiteSwiftly
