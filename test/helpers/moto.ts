// Starts moto_server (moto 5.2, preinstalled on CI machines: .ci/run checks) on a free loopback port for one test
// file, as a user runs it beside cfn-local for `--backend <url>`.
import { MotoBackend } from '../../server/backend/moto.js';

export interface TestMoto {
  url: string;
  moto: MotoBackend;
  close(): Promise<void>;
}

const quiet = { info() {}, warn() {} };

export async function startMoto(account = '000000000000'): Promise<TestMoto> {
  const moto = new MotoBackend({ account, log: quiet });
  await moto.start();
  const url = await moto.url();
  return { url, moto, close: () => moto.close() };
}
