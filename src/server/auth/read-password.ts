import type { Readable, Writable } from 'node:stream';

/** Reads the first line of a piped standard input (`printf 'pw\n' | npm run users -- ...`). */
export async function readFirstLine(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    const end = text.search(/\r?\n/);
    if (end >= 0) return text.slice(0, end);
    if (text.length > 4096) break;
  }
  return text.replace(/\r?\n$/, '');
}

interface Terminal extends Readable {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Asks for a line on a terminal without echoing it (Ctrl-C gives up). */
function askHidden(input: Terminal, output: Writable, prompt: string): Promise<string> {
  output.write(prompt);
  input.setRawMode?.(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003' || char === '\u0004') return done(new Error('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}

/**
 * The password for `npm run users`: asked twice without echo on a terminal, else the first line of
 * the input; never an argument (it would stay in the shell history).
 */
export async function readPassword(
  input: Terminal,
  output: Writable,
  prompt = 'Password',
): Promise<string> {
  if (!input.isTTY) return readFirstLine(input);
  const first = await askHidden(input, output, `${prompt}: `);
  const second = await askHidden(input, output, `${prompt} again: `);
  if (first !== second) throw new Error('The two passwords differ; nothing was changed.');
  return first;
}
