// The TVModel module; see Package.swift for its role.
