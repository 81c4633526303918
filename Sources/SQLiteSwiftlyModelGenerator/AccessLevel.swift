/// The access level of the generated types and their members: `internal` (the default) for models in the app's
/// own target, `public` or `package` for models in a library target that other targets import.
package enum AccessLevel: String, CaseIterable, Hashable, Sendable {
    /// No modifier: the types are visible in their own module.
    case `internal`
    /// `public`: visible to every module that imports the models' module.
    case `public`
    /// `package`: visible to the modules of the same package.
    case `package`

    /// The modifier and a space (`public `), or nothing for `internal`.
    var prefix: String { self == .internal ? "" : rawValue + " " }
}
