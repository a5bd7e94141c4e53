// Figure 15: S3 object bodies. PutObject and GetObject of one large object through the AWS SDK v3 against the built
// server (bodies in files beside a temp database), the server's peak RSS while they stream, and beside them the
// floors: a plain streamed file copy of the same bytes, and the same bytes as 1 MiB blob rows in SQLite (the other
// place bodies could live; docs/services.md says why they do not).
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startServer, scratch } from '../lib/server.mjs';
import { figure, median, single } from '../lib/stats.mjs';

const MIB = 1024 * 1024;

function s3(endpoint) {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
}

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The same bytes as 1 MiB blob rows, written in one transaction and read back in order. */
function sqliteFloor(file, source, mb) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE chunks (body TEXT, n INTEGER, data BLOB, PRIMARY KEY (body, n)) WITHOUT ROWID');
  const chunk = Buffer.alloc(MIB, 1);
  const insert = db.prepare('INSERT INTO chunks VALUES (?, ?, ?)');
  let t = performance.now();
  db.transaction(() => {
    for (let i = 0; i < mb; i++) insert.run('b', i, chunk);
  })();
  const write = performance.now() - t;
  t = performance.now();
  let bytes = 0;
  for (const row of db.prepare('SELECT data FROM chunks WHERE body = ? ORDER BY n').iterate('b'))
    bytes += row.data.length;
  const read = performance.now() - t;
  db.close();
  if (bytes !== mb * MIB || !source) throw new Error('sqlite floor read back the wrong size');
  return { write, read };
}

export async function s3Figures({ mb = 100, runs = 3 } = {}) {
  const dir = scratch();
  const source = dir.file('source.bin');
  writeFileSync(source, Buffer.alloc(mb * MIB, 7));
  const server = await startServer({ db: dir.file('s3.db') });
  const client = s3(server.endpoint);
  const put = [],
    get = [],
    copy = [],
    sqlWrite = [],
    sqlRead = [];
  let idle, afterPut, afterGet;
  try {
    await client.send(new CreateBucketCommand({ Bucket: 'bench' }));
    idle = server.memory()?.rss;
    for (let i = 0; i < runs; i++) {
      put.push(
        await timed(() =>
          client.send(
            new PutObjectCommand({
              Bucket: 'bench',
              Key: `big-${i}`,
              Body: createReadStream(source),
              ContentLength: mb * MIB,
            }),
          ),
        ),
      );
      afterPut = server.memory()?.hwm;
      get.push(
        await timed(async () => {
          const res = await client.send(new GetObjectCommand({ Bucket: 'bench', Key: `big-${i}` }));
          await pipeline(res.Body, createWriteStream(dir.file('got.bin')));
        }),
      );
      afterGet = server.memory()?.hwm;
      copy.push(await timed(() => pipeline(createReadStream(source), createWriteStream(dir.file(`copy-${i}.bin`)))));
      const floor = sqliteFloor(dir.file(`floor-${i}.db`), source, mb);
      sqlWrite.push(floor.write);
      sqlRead.push(floor.read);
    }
  } finally {
    client.destroy();
    await server.stop();
    dir.remove();
  }
  const rate = (ms) => `${Math.round((mb / (median(ms) / 1000)) * 10) / 10} MB/s`;
  return [
    figure(`s3: PutObject ${mb} MiB (SDK, streamed from a file)`, put, 'ms', { note: rate(put) }),
    figure(`s3: GetObject ${mb} MiB (SDK, streamed to a file)`, get, 'ms', { note: rate(get) }),
    figure(`s3 floor: plain file copy of ${mb} MiB (streams)`, copy, 'ms', { note: rate(copy) }),
    figure(`s3 alternative: ${mb} MiB as 1 MiB SQLite blob rows, write`, sqlWrite, 'ms', { note: rate(sqlWrite) }),
    figure(`s3 alternative: ${mb} MiB as 1 MiB SQLite blob rows, read`, sqlRead, 'ms', { note: rate(sqlRead) }),
    single('memory: RSS before the S3 transfers', idle, 'MB'),
    single(`memory: peak RSS during PutObject of ${mb} MiB`, afterPut, 'MB', {
      note: `VmHWM; ${Math.round((afterPut ?? 0) - (idle ?? 0))} MB above idle`,
    }),
    single(`memory: peak RSS during GetObject of ${mb} MiB`, afterGet, 'MB', { note: 'VmHWM, since start' }),
  ];
}
