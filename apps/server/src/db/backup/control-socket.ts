import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/**
 * The embedded database has one owner: the server that opened its folder (PGlite is one process).
 * That server listens on a Unix socket inside DATA_DIR (a 0700 folder: only the server's own user
 * can reach it, so no token is needed) and answers the CLI there: `ping` (is a server running on
 * this folder?) and `backup` (an online backup, streamed back). The CLI's other commands refuse to
 * open a folder a server answers for.
 *
 * One request per connection: a JSON line, then the answer: a JSON line ({ ok, ... } or
 * { ok: false, error }), for `backup` followed by the archive's bytes to the end of the stream.
 */
export const CONTROL_SOCKET = '.control.sock';
/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

export const controlSocketPath = (dataDir: string): string => join(dataDir, CONTROL_SOCKET);

export interface ControlHandlers {
  /** Why a backup cannot start now (one is running), or null. */
  backupRefusal(): string | null;
  backup(out: Socket): Promise<unknown>;
}

/** Starts the listener (null when the path is too long; the caller warns). */
export async function listenControlSocket(
  dataDir: string,
  handlers: ControlHandlers,
  log: { warn(msg: string): void },
): Promise<Server | null> {
  const path = controlSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return null;
  // A socket file left by a server that was killed: nothing answers on it any more.
  if ((await pingControlSocket(dataDir)) === null) removeStale(path);
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    readRequest(socket)
      .then(async (request) => {
        if (request === 'ping') socket.end(`${JSON.stringify({ ok: true, pid: process.pid })}\n`);
        else if (request === 'backup') {
          const refusal = handlers.backupRefusal();
          if (refusal) return void socket.end(`${JSON.stringify({ ok: false, error: refusal })}\n`);
          socket.write(`${JSON.stringify({ ok: true })}\n`);
          await handlers.backup(socket);
        } else
          socket.end(`${JSON.stringify({ ok: false, error: `unknown request ${request}` })}\n`);
      })
      .catch((err: unknown) => {
        log.warn(`control socket: ${err instanceof Error ? err.message : String(err)}`);
        // Cut mid-archive: the CLI sees no end marker and keeps no file.
        socket.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Like every file of DATA_DIR: the server's user only (the folder is 0700 already).
  chmodSync(path, 0o600);
  return server;
}

export async function closeControlSocket(server: Server | null): Promise<void> {
  if (!server) return;
  await new Promise<void>((r) => server.close(() => r()));
}

function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}

function readRequest(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline >= 0) {
        socket.off('data', onData);
        try {
          const parsed = JSON.parse(text.slice(0, newline)) as { command?: unknown };
          resolve(String(parsed.command));
        } catch {
          reject(new Error('a request that is not JSON'));
        }
      } else if (text.length > 4096) reject(new Error('a request line over 4 KiB'));
    };
    socket.on('data', onData);
    socket.once('end', () => reject(new Error('the client left before asking')));
  });
}

/** Connects to the folder's server; null when none answers (no socket, or a dead one's). */
export function connectControlSocket(dataDir: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect(controlSocketPath(dataDir));
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(null));
  });
}

/** The pid of the server running on this folder, or null. */
export async function pingControlSocket(dataDir: string): Promise<number | null> {
  const socket = await connectControlSocket(dataDir);
  if (!socket) return null;
  const line = await answerLine(socket, 'ping').catch(() => null);
  socket.destroy();
  const pid = (line as { pid?: unknown } | null)?.pid;
  return typeof pid === 'number' ? pid : null;
}

/**
 * Sends `command` and reads the answer's JSON line; the socket then carries the rest (for a
 * backup, the archive: `socket` is paused at its first byte, with what came after the line
 * unshifted back).
 */
export function answerLine(socket: Socket, command: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(10);
      if (newline < 0) return;
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      const rest = buffered.subarray(newline + 1);
      if (rest.length) socket.unshift(rest);
      try {
        resolve(
          JSON.parse(buffered.subarray(0, newline).toString('utf8')) as Record<string, unknown>,
        );
      } catch {
        reject(new Error('the server answered something that is not JSON'));
      }
    };
    const onEnd = () => reject(new Error('the server closed the connection without an answer'));
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.write(`${JSON.stringify({ command })}\n`);
  });
}
