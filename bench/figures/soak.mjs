// Memory under sustained mixed load (issue: eight minutes of fuzzing took RSS from 112 MB to 365 MB): clients loop
// creating, describing and deleting stacks while sending the bad input a fuzzer sends, and RSS is sampled once the
// server is warm and again at the end. The growth between the two is the figure with a bound; no test asserts it.
import { ValidateTemplateCommand, DescribeStackEventsCommand } from '@aws-sdk/client-cloudformation';
import { startServer, scratch, client } from '../lib/server.mjs';
import { createStack, deleteStack } from '../lib/deploy.mjs';
import { template } from '../lib/templates.mjs';
import { single } from '../lib/stats.mjs';

const BAD_BODIES = [
  'Resources: [\n',
  '{"Resources": {',
  `Resources:\n  A: &a {Type: AWS::SNS::Topic}\n  B: *a\n`,
  'x'.repeat(60_000),
];

/** One client's loop until `until`: a stack's life, its events, and a burst of refused input. */
async function work(endpoint, id, until, body, counts) {
  const cf = client(endpoint);
  try {
    for (let i = 0; performance.now() < until; i++) {
      const created = await createStack(cf, `soak-${id}-${i}`, body);
      await cf.send(new DescribeStackEventsCommand({ StackName: created.stackId }));
      await deleteStack(cf, created.stackId);
      for (const bad of BAD_BODIES)
        await cf.send(new ValidateTemplateCommand({ TemplateBody: bad })).catch(() => counts.refused++);
      await fetch(endpoint, {
        method: 'POST',
        body: `Action=CreateStack&StackName=${'n'.repeat(10_000)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
        .then((r) => r.text())
        .then(() => counts.refused++);
      counts.stacks++;
    }
  } finally {
    cf.destroy();
  }
}

export async function soakFigures({ seconds = 120, clients = 8, resources = 10, warmupShare = 0.25 } = {}) {
  const dir = scratch();
  const server = await startServer({ db: dir.file('soak.db') });
  const counts = { stacks: 0, refused: 0 };
  const body = template(resources);
  let warm;
  let end;
  try {
    const start = performance.now();
    const until = start + seconds * 1000;
    const sampler = new Promise((resolve) =>
      setTimeout(() => resolve(server.memory()?.rss), seconds * 1000 * warmupShare),
    );
    await Promise.all(Array.from({ length: clients }, (_, i) => work(server.endpoint, i, until, body, counts)));
    warm = await sampler;
    end = server.memory()?.rss;
  } finally {
    await server.stop();
    dir.remove();
  }
  const note = `${clients} clients, ${seconds} s: ${counts.stacks} stacks created and deleted, ${counts.refused} refused requests`;
  return [
    single('soak: RSS once warm', warm, 'MB', { note: `after ${Math.round(warmupShare * 100)}% of the run` }),
    single('soak: RSS at the end', end, 'MB', { note }),
    single('soak: RSS growth under sustained load', end === undefined || warm === undefined ? null : end - warm, 'MB', {
      target: '≤ 64',
    }),
  ];
}
