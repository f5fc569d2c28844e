import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText, readSettings, SETTINGS, SettingsError } from '../../src/server/config/settings';

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  try {
    readSettings(env);
    return [];
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
};

describe('the settings', () => {
  it('reads what a deployment sets, typed', () => {
    expect(
      readSettings({
        SVC_BASE_URL: 'https://api.example.test/',
        SVC_API_KEY: 'svc_live_abc',
        SLABDESK_PUBLIC_URL: 'https://cards.example.com',
        SLABDESK_TRUST_PROXY: '1',
        SLABDESK_WEBHOOK_PORT: '4174',
        SLABDESK_SESSION_IDLE_MINUTES: '30',
        SLABDESK_LOG_LEVEL: 'warn',
        SLABDESK_USERS_DB: '   ',
      }),
    ).toEqual({
      SVC_BASE_URL: 'https://api.example.test/',
      SVC_API_KEY: 'svc_live_abc',
      SLABDESK_PUBLIC_URL: 'https://cards.example.com',
      SLABDESK_TRUST_PROXY: true,
      SLABDESK_WEBHOOK_PORT: 4174,
      SLABDESK_SESSION_IDLE_MINUTES: 30,
      SLABDESK_LOG_LEVEL: 'warn',
    });
  });

  it('refuses a comment left after a URL, as systemd and docker --env-file keep it', () => {
    const [problem] = problemsOf({
      SVC_BASE_URL: 'https://api.example.test/   # the base URL from the docs',
      SVC_API_KEY: 'svc_live_abc',
    });
    expect(problem).toMatch(/^SVC_BASE_URL has text after the address/);
    expect(problemsOf({ SVC_API_KEY: 'svc_live_abc # mine' })[0]).toMatch(/^SVC_API_KEY/);
  });

  it('names every bad value at once: a port out of range, a level, a scheme', () => {
    const problems = problemsOf({
      SLABDESK_WEBHOOK_PORT: '70000',
      SLABDESK_LOG_LEVEL: 'loud',
      SLABDESK_PUBLIC_URL: 'ftp://cards.example.com',
      SLABDESK_SESSION_MAX_HOURS: '-1',
    });
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'SLABDESK_PUBLIC_URL',
      'SLABDESK_WEBHOOK_PORT',
      'SLABDESK_SESSION_MAX_HOURS',
      'SLABDESK_LOG_LEVEL',
    ]);
  });

  it('asks for https on a public address, but lets a home network use http', () => {
    expect(problemsOf({ SLABDESK_PUBLIC_URL: 'http://cards.example.com' })[0]).toMatch(
      /must start with https:\/\/ .* clear text/,
    );
    expect(problemsOf({ SLABDESK_PUBLIC_URL: 'http://192.168.1.20:4173' })).toEqual([]);
    expect(problemsOf({ SLABDESK_PUBLIC_URL: 'http://desk.local:4173' })).toEqual([]);
  });

  it('says a value is no URL, weighing the settings that parsed together still', () => {
    expect(
      problemsOf({ SVC_BASE_URL: 'nope', SVC_API_KEY: 'k', SLABDESK_VAPID_PUBLIC_KEY: 'p' }),
    ).toEqual([
      'SVC_BASE_URL is not a URL ("nope")',
      'SLABDESK_VAPID_PUBLIC_KEY and SLABDESK_VAPID_PRIVATE_KEY go together: set both',
    ]);
  });

  it('wants the key with the base URL', () => {
    expect(problemsOf({ SVC_BASE_URL: 'https://api.example.test/' })).toEqual([
      'SVC_API_KEY is required when SVC_BASE_URL is set',
    ]);
  });

  it('lists every setting in --help', () => {
    const help = helpText('npm start --');
    for (const name of Object.keys(SETTINGS)) expect(help).toContain(name);
  });

  it('parses docs/deploy.md’s .env example as systemd reads it', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
    const block = /Settings\*\* in [^\n]*\n\n\s*```sh\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const env: NodeJS.ProcessEnv = {};
    for (const line of block.split('\n').map((one) => one.trim())) {
      if (!line || line.startsWith('#')) continue;
      const at = line.indexOf('=');
      env[line.slice(0, at)] = line.slice(at + 1);
    }
    expect(Object.keys(env)).toContain('SVC_BASE_URL');
    expect(problemsOf(env)).toEqual([]);
  });
});
