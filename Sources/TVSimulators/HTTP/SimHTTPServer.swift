import Clients

// The simulated TVs serve HTTP with the project's one server (`Clients/HTTP/HTTPServer`);
// these names are what the simulators were written against.
public typealias SimHTTPServer = HTTPServer
public typealias SimHTTPReply = HTTPServerReply
public typealias SimUpgrade = HTTPUpgrade
