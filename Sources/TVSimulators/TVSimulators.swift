// The TVSimulators module; see Package.swift for its role.
