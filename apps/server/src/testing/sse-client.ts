/** A live-stream (server-sent events) client for tests: collects every event it receives. */
export interface SseEvent {
  event: string;
  data: {
    action?: string;
    alert?: { id: string; wearer: { uid: string } };
    uid?: string;
    heartRate?: number;
  };
}

export function connectSse(url: string, headers: Record<string, string> = {}) {
  const events: SseEvent[] = [];
  const abort = new AbortController();
  let status = 0;
  let done = false;
  const ended = (async () => {
    const res = await fetch(url, { headers, signal: abort.signal });
    status = res.status;
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buf += decoder.decode(chunk.value as Uint8Array, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as SseEvent['data'] });
      }
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      done = true;
    });
  return {
    events,
    ended,
    close: () => abort.abort(),
    status: () => status,
    /** The server ended the response (or the request failed). */
    isEnded: () => done,
  };
}
export type SseClient = ReturnType<typeof connectSse>;

/** Polls until probe returns something other than undefined. */
export async function until<T>(probe: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
