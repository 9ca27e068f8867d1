// The HomeAssistant module; see Package.swift for its role.
