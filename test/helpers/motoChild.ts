// A process that starts moto the way cfn-local does and prints moto's guard pid once moto answers: the supervisor
// test SIGKILLs it to see that moto does not outlive cfn-local.
import { MotoBackend } from '../../server/backend/moto.js';

const moto = new MotoBackend({ account: '000000000000', log: { info() {}, warn() {} } });
await moto.start();
await moto.url();
process.stdout.write(`${moto.pid}\n`);
setInterval(() => {}, 60_000);
