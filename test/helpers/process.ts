// The built server as a child process on a database file, for tests that kill it (SIGKILL) and start it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';

const MAIN = join(import.meta.dirname, '../../dist/server/main.js');

export interface Running {
  child: ChildProcess;
  client: CloudFormationClient;
  endpoint: string;
}

export function start(db: string, args: readonly string[] = []): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, '--port', '0', '--db', db, '--log-level', 'info', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (!match) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      const client = new CloudFormationClient({
        endpoint: match[1],
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      resolve({ child, client, endpoint: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
  });
}

export function kill(run: Running): Promise<void> {
  return new Promise((resolve) => {
    run.child.removeAllListeners('exit');
    run.child.on('exit', () => resolve());
    run.child.kill('SIGKILL');
  });
}
