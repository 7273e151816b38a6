/**
 * A small Server-Sent Events reader over fetch for the self-tests: it parses
 * the stream as the SSE spec says (fields event/id/data, blank line
 * dispatches), keeps every message, and lets a test wait for the message it
 * expects with a timeout instead of sleeping.
 */
export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

export class SseReader {
  readonly messages: SseMessage[] = [];
  ended = false;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string>): Promise<SseReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
    const reader = new SseReader(response, abort);
    if (response.ok && response.body) void reader.pump(response.body);
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    let event = '';
    let id: string | undefined;
    let data: string[] = [];
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
          if (line === '') {
            if (data.length > 0 || event !== '') this.messages.push({ event: event || 'message', id, data: data.join('\n') });
            event = '';
            data = [];
            this.wake();
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
          else if (field === 'id') id = value;
        }
      }
    } catch {
      // aborted or reset: treated as the end of the stream
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The first message (from index `from`) matching `pred`, waiting up to `timeoutMs`. */
  async waitFor(pred: (m: SseMessage) => boolean, timeoutMs = 5000, from = 0): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(pred);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended before the expected message; got: ${this.messages.map((m) => m.event).join(', ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no expected message within ${timeoutMs} ms; got: ${this.messages.map((m) => m.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves when the server ends the stream (or rejects after `timeoutMs`). */
  async waitForEnd(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('stream did not end');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  json<T = Record<string, unknown>>(m: SseMessage): T {
    return JSON.parse(m.data) as T;
  }

  close(): void {
    this.abort.abort();
  }
}
