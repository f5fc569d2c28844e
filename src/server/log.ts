import { pino } from 'pino';

// The server's one logger (Fastify's too): never a key, a session id or a cookie, whatever logs.
export const serverLog = pino({
  level: 'warn',
  base: undefined,
  redact: {
    paths: [
      'req.headers.cookie',
      'req.headers["x-service-access-token"]',
      'req.headers["x-slabdesk-csrf"]',
      'res.headers["set-cookie"]',
      'headers.cookie',
      'apiKey',
      'sessionId',
    ],
    censor: '[redacted]',
  },
});

/** The level the settings ask for (`SLABDESK_LOG_LEVEL`); tests keep the quiet default. */
export function setLogLevel(level: string | undefined): void {
  if (level) serverLog.level = level;
}
