// Types of testing/container.mjs.
import type { GenericContainer, StartedTestContainer, StopOptions, StoppedTestContainer } from 'testcontainers';

export declare const PORT: 4581;

export declare function buildCfnLocalImage(
  context: string,
  tag?: string,
  buildArgs?: Record<string, string>,
): Promise<string>;

export interface CfnLocalOptions {
  image?: string;
  env?: Record<string, string>;
  startupTimeoutMs?: number;
  configure?: (container: GenericContainer) => GenericContainer | void;
}

export interface CfnLocal {
  /** e.g. http://localhost:32771: the endpoint (AWS_ENDPOINT_URL) for your AWS clients. */
  endpoint: string;
  container: StartedTestContainer;
  stop(options?: Partial<StopOptions>): Promise<StoppedTestContainer>;
}

export declare function startCfnLocal(options?: CfnLocalOptions): Promise<CfnLocal>;
