// What jsdom leaves out of a browser's globals and the console's libraries read when loaded
// (react-router's TextEncoder). Node's own; nothing changes in the Node environment.
const { TextDecoder, TextEncoder } = require('node:util');

globalThis.TextEncoder ??= TextEncoder;
globalThis.TextDecoder ??= TextDecoder;
