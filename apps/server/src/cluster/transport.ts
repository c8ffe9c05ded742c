/**
 * What carries the cross-server bus: PostgreSQL LISTEN/NOTIFY (pg-link.ts) or NATS
 * (nats-transport.ts). Payloads are JSON text; delivery is best effort while connected, and a
 * transport tells the bus when it lost and regained its connection so the bus can resynchronise.
 */
export interface BusTransport {
  /** Sends to every other server (and maybe back to this one); false when not connected (dropped). */
  send(payload: string): boolean;
  /** Set by the bus: a payload from any server (its own included, the bus filters by origin). */
  onMessage: (payload: string) => void;
  /** Set by the bus: the connection dropped (events sent meanwhile are lost). */
  onLost: () => void;
  /** Set by the bus: connected again after a loss (not called for the first connection). */
  onReconnect: () => void;
  /** Resolves once subscribed for the first time. */
  ready(): Promise<void>;
  connected(): boolean;
  close(): Promise<void>;
}
