import type { Server } from 'node:http';

/** Listens on `port`, or (as Vite does, unless `strict`) the next free one; returns the port. */
export async function listenOn(
  server: Server,
  host: string,
  port: number,
  strict: boolean,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const candidate = port === 0 ? 0 : port + attempt;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(candidate, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address();
      return typeof address === 'object' && address ? address.port : candidate;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' || strict || port === 0 || attempt >= 20) throw error;
    }
  }
}
