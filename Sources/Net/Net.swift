// The Net module; see Package.swift for its role.
