import { EventEmitter } from 'node:events';
import type { Config } from './config.js';
import type { Db } from './db/client.js';

/** What every service is given: configuration, the database and the in-process event bus. */
export interface AppContext {
  config: Config;
  db: Db;
  /** In-process events (new alerts, summary changes) for live streams. */
  bus: EventEmitter;
  /** The clock; tests and scripted scenarios may replace it. */
  now: () => Date;
}

export function createContext(config: Config, db: Db, now: () => Date = () => new Date()): AppContext {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return { config, db, bus, now };
}
