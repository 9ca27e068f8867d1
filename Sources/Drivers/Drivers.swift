// The Drivers module; see Package.swift for its role.
