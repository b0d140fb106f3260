/** Types of what cluster.mjs exports, for the TypeScript that imports it (server/test/cluster-haproxy.test.ts). */
export interface ClusterNode {
  index: number;
  port: number;
  url: string;
  readonly pid: number | undefined;
  output(): string;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  url: string;
  nodes: ClusterNode[];
  haproxyOutput(): string;
  stop(): Promise<void>;
}

/** HAProxy's program: HAPROXY, else Debian's /usr/sbin/haproxy, else the PATH's. */
export const HAPROXY: string;

export function haproxyConfig(options: { port: number; servers: string[]; bind?: string }): string;

export function startCluster(options: {
  databaseUrl: string;
  redisUrl: string;
  processes?: number;
  port?: number;
  /** The servers' ports (default: the `processes` ports after `port`). */
  ports?: number[];
  env?: NodeJS.ProcessEnv;
  supervise?: boolean;
  bundle?: boolean;
  log?: (line: string) => void;
}): Promise<Cluster>;
