/** One server-sent event as a tab receives it. */
export interface SseMessage {
  event: string;
  data: unknown;
}

export interface SseReader {
  messages: SseMessage[];
  /** Resolves once `predicate` holds for the messages so far (checked as each one arrives). */
  waitFor(predicate: (messages: SseMessage[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Reads a `text/event-stream` over plain HTTP, as EventSource would, collecting every message. */
export async function readEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`event stream: ${response.status}`);
  const messages: SseMessage[] = [];
  // Waiters, told of each message (no vitest here: the hub bench's flood worker reads streams too).
  const arrived = new Set<() => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) messages.push({ event, data: JSON.parse(data.join('\n')) });
          for (const tell of arrived) tell();
        }
      }
    } catch {
      // closed
    }
  })();
  return {
    messages,
    waitFor(predicate, timeoutMs = 10_000) {
      if (predicate(messages)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(messages)) return;
          finish();
          resolve();
        };
        const timer = setTimeout(() => {
          finish();
          const got = messages.map((m) => m.event).join(', ');
          reject(new Error(`event stream: condition not met; got ${got}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          arrived.delete(check);
        };
        arrived.add(check);
      });
    },
    close: () => controller.abort(),
  };
}
