import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect as tcpConnect, createServer } from 'node:net';

/** The nats-server binary (Debian package nats-server), if this machine has it. */
export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find((p) =>
  existsSync(p),
);

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

/** Resolves once something accepts TCP connections on the port (or after `ms`, rejecting). */
export async function waitForPort(port: number, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const sock = tcpConnect(port, '127.0.0.1');
      sock.once('connect', () => (sock.destroy(), resolve(true)));
      sock.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A NATS server of the test's own on a free port (so a test may stop and start it without
 * touching the machine's), or null without the binary.
 */
export async function startPrivateNats(): Promise<{
  url: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
} | null> {
  if (!NATS_SERVER) return null;
  const port = await freePort();
  const start = async () => {
    const p: ChildProcess = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], {
      stdio: 'ignore',
    });
    await waitForPort(port);
    return p;
  };
  let proc = await start();
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    /** Stops the server and starts it again on the same port (every client is cut off meanwhile). */
    async restart() {
      await stop();
      proc = await start();
    },
  };
}
