// The crash campaign's checks of what a SIGKILL left on disk and in the process table (scripts/crash.mjs): the
// database passes `PRAGMA integrity_check`, every S3 row's body file exists with its size (and, for a single-part
// object, its MD5), a restart leaves no body without a row and no killed server's Lambda folder, and no Lambda
// environment outlives the killed server.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const BODY_ROWS = 'SELECT body_id, size, etag FROM s3_objects UNION ALL SELECT body_id, size, etag FROM s3_parts';

/** Right after the kill, before the restart: what the crash left must already be consistent. */
export function checkDatabase(file, violation) {
  const db = new Database(file);
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') violation(`integrity_check: ${integrity}`);
    for (const row of db.prepare(BODY_ROWS).all()) {
      const body = join(`${file}.objects`, row.body_id);
      if (!existsSync(body)) {
        violation(`the body of an S3 row (${row.body_id}, ${row.size} bytes) is missing`);
        continue;
      }
      const size = statSync(body).size;
      if (size !== row.size) violation(`body ${row.body_id} holds ${size} bytes, its row says ${row.size}`);
      const etag = row.etag.replaceAll('"', '');
      if (!etag.includes('-') && size === row.size) {
        const md5 = createHash('md5').update(readFileSync(body)).digest('hex');
        if (md5 !== etag) violation(`body ${row.body_id} has MD5 ${md5}, its row's ETag is ${etag}`);
      }
    }
  } finally {
    db.close();
  }
}

/** After the restart: the bodies folder holds exactly the bodies rows point at (the start swept the rest). */
export function checkSwept(file, violation) {
  const db = new Database(file, { readonly: true });
  try {
    const ids = new Set(
      db
        .prepare(BODY_ROWS)
        .all()
        .map((r) => r.body_id),
    );
    for (const name of readdirSync(`${file}.objects`))
      if (!ids.has(name)) violation(`the restart left ${name} in the bodies folder, which no row points at`);
  } finally {
    db.close();
  }
}

/** After the restart: the server's temp folder holds its own Lambda runtime folder only (the start swept the rest). */
export function checkTempSwept(tmpDir, violation) {
  const left = readdirSync(tmpDir).filter((n) => n.startsWith('cfn-local-lambda-'));
  if (left.length !== 1) violation(`${left.length} Lambda runtime folders in the server's temp folder, not 1`);
}

/** Processes whose working directory is under `dir` (the server's TMPDIR: Lambda environments run there). */
function processesUnder(dir) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(Number(pid));
    } catch {
      /* gone, or not ours */
    }
  }
  return found;
}

/** A killed server's Lambda environments exit on their own (their runtime API is gone) within `withinMs`. */
export async function checkNoEnvironmentsLeft(tmpDir, withinMs, violation) {
  const end = Date.now() + withinMs;
  for (;;) {
    const left = processesUnder(tmpDir);
    if (!left.length) return;
    if (Date.now() > end) {
      violation(`Lambda environments outlived the killed server by ${withinMs} ms: pids ${left.join(', ')}`);
      for (const pid of left) process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
