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
