import { once } from 'node:events';
import type { Server } from 'node:http';

/** Listens on `port`, or (as Vite does, unless `strict`) the next free one; its port and URL. */
export async function listenOn(server: Server, host: string, port: number, strict: boolean) {
  // Node's default is 2,000 headers a request.
  server.maxHeadersCount = 100;
  for (let attempt = 0; ; attempt++) {
    const candidate = port === 0 ? 0 : port + attempt;
    try {
      // Rejects with the listener's error (a port taken) instead.
      await once(server.listen(candidate, host), 'listening');
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : candidate;
      // Every address is reached on this machine's loopback.
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      return { port: bound, url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}` };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' || strict || port === 0 || attempt >= 20) throw error;
    }
  }
}
