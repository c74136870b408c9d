// Stands in for node:http2 in the bundle (see the build script's --alias). payctl never asks
// undici for HTTP/2, and undici tolerates a missing http2 module; loading the real one would
// also load tls and crypto on every command, even those that only talk plain HTTP to the sandbox.
export const constants = {};
export default { constants };
