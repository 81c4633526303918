// sqliteswiftly-models: writes Swift row types for the tables and views of an existing SQLite database.
//
//     swift run sqliteswiftly-models shop.sqlite
//     swift run sqliteswiftly-models shop.sqlite --table "Order Details" --table Customers --output Models.swift
//
// The command lives in the SQLiteSwiftlyModelGenerator target, where the tests can run it.
import SQLiteSwiftlyModelGenerator

ModelsCommand.main()
