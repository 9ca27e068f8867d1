// The Bridge module; see Package.swift for its role.
