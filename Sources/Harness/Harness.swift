// The Harness module; see Package.swift for its role.
