/** Testing Library's DOM matchers (`toBeInTheDocument`, `toHaveAttribute`, `toBeInvalid`, …). */
import '@testing-library/jest-dom/vitest';

// Vitest's jsdom environment gives the page its own `ArrayBuffer`, so a Node Buffer fails
// `instanceof ArrayBuffer` there: the in-process server's Fastify would send a Buffer answer as
// JSON of its bytes. A browser has one realm; the tests' page and server share Node's.
const nodeArrayBuffer = Object.getPrototypeOf(Buffer.alloc(0).buffer)
  .constructor as ArrayBufferConstructor;
if (globalThis.ArrayBuffer !== nodeArrayBuffer) globalThis.ArrayBuffer = nodeArrayBuffer;
