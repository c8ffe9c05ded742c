export interface MqttLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface MqttService {
  mode: 'embedded' | 'external';
  /** The embedded broker's port (useful with MQTT_PORT ephemeral in tests); null when external. */
  port: number | null;
  close(): Promise<void>;
}
