// Layers where AWS puts them: on Linux, where unprivileged user namespaces allow it, a function with layers runs in
// its own mount namespace with its merged layer folder bound on /opt, so code that names /opt paths (the CDK's
// BucketDeployment runs /opt/awscli/aws) finds them. Elsewhere the layers are only on NODE_PATH / PYTHONPATH.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MOUNT_SCRIPT = 'mount --bind "$CFN_LOCAL_LAMBDA_OPT" /opt && exec "$@"';

let probe: Promise<boolean> | undefined;

/** Whether `unshare -rm` and a bind mount on /opt work here (probed once). */
export function canMountOpt(): Promise<boolean> {
  probe ??= new Promise((resolve) => {
    if (process.platform !== 'linux') return resolve(false);
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-opt-'));
    execFile(
      'unshare',
      ['-rm', 'sh', '-c', MOUNT_SCRIPT, 'sh', 'true'],
      { env: { ...process.env, CFN_LOCAL_LAMBDA_OPT: dir }, timeout: 10_000 },
      (err) => {
        rmSync(dir, { recursive: true, force: true });
        resolve(!err);
      },
    );
  });
  return probe;
}

/** The command and arguments that run `command args` with CFN_LOCAL_LAMBDA_OPT bound on /opt. */
export function withOpt(command: string, args: string[]): { command: string; args: string[] } {
  return { command: 'unshare', args: ['-rm', 'sh', '-c', MOUNT_SCRIPT, 'sh', command, ...args] };
}
