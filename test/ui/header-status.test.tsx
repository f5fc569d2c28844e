import { describe, expect, it } from 'vitest';
import { delayReason, dotClass, statusWords, updatesState } from '../../src/app/connection-status';
import { CLOSED_STREAM, type HubStreamState } from '../../src/api/live/hub-stream';
import { progressWords, timeLeftWords } from '../../src/features/listings/bulk-edit/apply-panel';
import { changeWords } from '../../src/features/listings/bulk-edit/preview-panel';
import type { RunnerProgress } from '../../src/features/listings/bulk-edit/jobs/job-runner';
import { niceTicks } from '../../src/features/insights/chart-ticks';

const stream = (state: Partial<HubStreamState>): HubStreamState => ({
  ...CLOSED_STREAM,
  connection: 'open',
  ...state,
});

describe('the header’s one status', () => {
  it('names the key and whether updates arrive as they happen, in words', () => {
    expect(statusWords('live', 'on')).toBe('Live key · updates on');
    expect(statusWords('test', 'delayed')).toBe('Test key · updates delayed');
    expect(statusWords(undefined, 'on')).toBe('Connecting…');
    expect(updatesState(stream({ healthy: true }))).toBe('on');
    expect(updatesState(stream({ connection: 'connecting' }))).toBe('connecting');
    expect(updatesState(stream({ connection: 'closed' }))).toBe('delayed');
  });

  it('says offline, never "connecting" on a green dot, when there is no network', () => {
    expect(statusWords('live', 'offline')).toBe('Offline · sales are kept on this phone');
    expect(statusWords(undefined, 'offline')).toBe('Offline · sales are kept on this phone');
    expect(dotClass('live', 'offline')).toBe('is-offline');
    expect(dotClass('live', 'connecting')).toBe('is-connecting');
    expect(dotClass('live', 'on')).toBe('mode-live');
    expect(dotClass('live', 'delayed')).toBe('mode-live is-delayed');
  });

  it('says why updates are delayed without the API’s words', () => {
    const reasons = [
      delayReason(stream({ connection: 'closed' })),
      delayReason(stream({ status: { webhooks: 'off' } as HubStreamState['status'] })),
      delayReason(stream({})),
    ];
    expect(delayReason(stream({ healthy: true }))).toBeNull();
    for (const reason of reasons) expect(reason).not.toMatch(/webhook|secret|stream is|HTTP/i);
  });
});

const progress = (counts: Partial<RunnerProgress>): RunnerProgress => ({
  state: 'running',
  rows: 120,
  done: 0,
  failed: 0,
  conflict: 0,
  pending: 120,
  writes: 120,
  writesDone: 0,
  writesLeft: 120,
  secondsLeft: 40,
  ...counts,
});

describe('the bulk run’s progress line', () => {
  it('counts saved rows and says the time left as a seller would, never a rate of writes', () => {
    expect(progressWords(progress({ done: 3, secondsLeft: 59 }))).toBe(
      '3 of 120 saved · less than a minute left',
    );
    expect(progressWords(progress({ done: 3, secondsLeft: 61 }))).toBe(
      '3 of 120 saved · about 2 minutes left',
    );
    expect(timeLeftWords(3600 + 60)).toBe('about 1 hour 1 minute left');
    expect(
      progressWords(progress({ state: 'finished', done: 117, failed: 2, conflict: 1, pending: 0 })),
    ).toBe('117 of 120 saved, 2 not saved, 1 sold or changed meanwhile');
    expect(progressWords(progress({ state: 'paused', done: 20, pending: 100 }))).toBe(
      '20 of 120 saved, 100 not sent yet',
    );
    expect(progressWords(progress({ done: 1 }))).not.toMatch(/writes\/s|under 1 s/);
  });

  it('names each change as the seller sees it, not as an HTTP verb', () => {
    const item = (methods: ('PUT' | 'DELETE')[]) =>
      ({ writes: methods.map((method) => ({ method })) }) as unknown as Parameters<
        typeof changeWords
      >[0];
    expect(changeWords(item(['PUT']))).toBe('Save');
    expect(changeWords(item(['PUT', 'DELETE']))).toBe('Save, then take off sale');
    expect(changeWords(item([]))).toBe('Nothing');
  });
});

describe('a chart’s value axis', () => {
  it('steps by 1, 2 or 5 times a power of ten up to the highest value, whole for counts', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(3, { whole: true })).toEqual([0, 1, 2, 3]);
    expect(niceTicks(1_577_194)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000]);
    expect(niceTicks(0.62)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
  });
});
