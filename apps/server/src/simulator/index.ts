// The simulator's programmatic API, for tests and benchmarks (see docs/simulator.md).
export {
  Simulation,
  type SimGateway,
  type SimulationOptions,
  type OutboundBatch,
} from './simulation.js';
export { SIM_EVENT_KINDS, type SimEventKind, type SimEventRecord } from './events.js';
export { BatchSender, runSimulation, type RunOptions, type RunStats } from './runner.js';
export {
  runScenario,
  loadScenarioFile,
  scenarioSchema,
  type Scenario,
  type ScenarioOptions,
} from './scenario.js';
export type { SimulatorDriver, GatewayCredentials } from './drivers/driver.js';
export { createHttpDriver } from './drivers/http.driver.js';
export { createMqttDriver } from './drivers/mqtt.driver.js';
export { createInProcessDriver } from './drivers/in-process.driver.js';
export { consoleLogger, silentLogger, type SimLogger } from './logger.js';
export { provisionSimulation } from './simulator.repository.js';
