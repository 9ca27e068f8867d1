// The Clients module; see Package.swift for its role.
