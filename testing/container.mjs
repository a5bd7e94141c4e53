// cfn-local in a container for your integration tests, one import away (needs `testcontainers` in your
// devDependencies and a Docker engine): `const cfn = await startCfnLocal(); … cfn.endpoint …; await cfn.stop();`.
// docs/container.md shows it with vitest/jest; test/container/ uses it as shown there.
import { GenericContainer, Wait } from 'testcontainers';

export const PORT = 4581;

/**
 * Builds the image from a cfn-local checkout (the folder holding its Dockerfile) and tags it. buildArgs go to the
 * Dockerfile, e.g. `{ SAM_TRANSLATOR: 'false' }` where PyPI cannot be reached. Docker's layer cache makes a rebuild
 * quick.
 */
export async function buildCfnLocalImage(context, tag = 'cfn-local:latest', buildArgs = {}) {
  await GenericContainer.fromDockerfile(context).withBuildArgs(buildArgs).build(tag, { deleteOnExit: false });
  return tag;
}

/**
 * Starts cfn-local from an image, waits for its health check and answers with the endpoint to give your clients.
 * Options: image (default cfn-local:latest), env (CFN_LOCAL_* variables; the database is in memory unless you set
 * CFN_LOCAL_DB), startupTimeoutMs (default 60 s), configure (a function given the GenericContainer before start,
 * for volumes, a network or a name).
 */
export async function startCfnLocal(options = {}) {
  let container = new GenericContainer(options.image ?? 'cfn-local:latest')
    .withExposedPorts(PORT)
    .withEnvironment({ CFN_LOCAL_DB: ':memory:', ...options.env })
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(options.startupTimeoutMs ?? 60_000);
  if (options.configure) container = options.configure(container) ?? container;
  const started = await container.start();
  return {
    endpoint: `http://${started.getHost()}:${started.getMappedPort(PORT)}`,
    container: started,
    stop: (stopOptions) => started.stop(stopOptions),
  };
}
