/** The subset of a pino/Fastify logger the simulator writes to. */
export interface SimLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** One JSON line per message on stdout/stderr, for the CLI. */
export function consoleLogger(quiet = false): SimLogger {
  const line = (level: string, obj: object, msg: string) =>
    JSON.stringify({ time: new Date().toISOString(), level, msg, ...obj });
  return {
    info: (obj, msg) => {
      if (!quiet) console.log(line('info', obj, msg));
    },
    warn: (obj, msg) => console.error(line('warn', obj, msg)),
    error: (obj, msg) => console.error(line('error', obj, msg)),
  };
}

export const silentLogger: SimLogger = { info() {}, warn() {}, error() {} };
