// The web console in Debian's chromium (playwright-core): the first paint of the page, and how it copes with
// 1,000 stacks and a stack of 10,000 events (time to the first row, to all 10,000 events read, frame times while
// scrolling the virtualised lists), each timed in the page itself. Skipped, with a note, where chromium is not
// installed.
/* global document, requestAnimationFrame, window, location, MutationObserver -- these run in the browser page */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer, scratch } from '../lib/server.mjs';
import { cloneStack, openReadWrite } from '../lib/rows.mjs';
import { createStack } from '../lib/deploy.mjs';
import { figure, single } from '../lib/stats.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TEMPLATE = `Resources:
  Data:
    Type: AWS::S3::Bucket
  Config:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: !Ref Data }
`;

/** One stack deployed, cloned to `stacks`, and its events copied until it has `events` of them. */
async function seed(file, { stacks, events }) {
  const server = await startServer({ db: file });
  const { stackId } = await createStack(server.client, 'seed', TEMPLATE);
  await server.stop();
  cloneStack(file, stackId, 'seed', stacks - 1, 'stack');
  const db = openReadWrite(file);
  try {
    const have = () => db.prepare('SELECT count(*) FROM events WHERE stack_id = ?').pluck().get(stackId);
    const copy = db.prepare(
      `INSERT INTO events (stack_id, account, region, event_id, logical_id, physical_id, type, status, reason,
         properties, token, timestamp, stack_key)
       SELECT stack_id, account, region, event_id || '-' || seq, logical_id, physical_id, type, status, reason,
         properties, token, timestamp, stack_key FROM events WHERE stack_id = ? LIMIT ?`,
    );
    while (have() < events) copy.run(stackId, events - have());
  } finally {
    db.close();
  }
  return stackId;
}

/**
 * In the page, from document start: the time (performance.now) of the frame in which an element matching the
 * selector is first in the page, kept in window.__firstFrame[selector]. Timed in the page, so the figures hold no
 * round trip of the driver's polling.
 */
function watchFirst(selectors) {
  const firstFrame = {};
  window.__firstFrame = firstFrame;
  window.__watch = (selector) =>
    new Promise((resolve) => {
      const seen = () => {
        if (!document.querySelector(selector)) return false;
        requestAnimationFrame(() => resolve((firstFrame[selector] = performance.now())));
        return true;
      };
      if (seen()) return;
      const observer = new MutationObserver(() => seen() && observer.disconnect());
      observer.observe(document, { childList: true, subtree: true });
    });
  // the frame in which no text of the page holds `text` any more (at once when it is not there: a stack whose events
  // all came in the first read never shows it)
  window.__gone = (text) =>
    new Promise((resolve) => {
      const gone = () => {
        if (document.body.textContent.includes(text)) return false;
        requestAnimationFrame(() => resolve(performance.now()));
        return true;
      };
      if (gone()) return;
      const observer = new MutationObserver(() => gone() && observer.disconnect());
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    });
  for (const selector of selectors) void window.__watch(selector);
}

/** Frame times (ms) while the list scrolls by `step` pixels a frame for `frames` frames. */
const scrollFrames = (page, selector, frames = 120, step = 400) =>
  page.evaluate(
    ([sel, n, px]) =>
      new Promise((resolve) => {
        const list = document.querySelector(sel);
        const times = [];
        let last = performance.now();
        const tick = (now) => {
          times.push(now - last);
          last = now;
          list.scrollTop += px;
          if (times.length < n) requestAnimationFrame(tick);
          else resolve(times.slice(1));
        };
        requestAnimationFrame(tick);
      }),
    [selector, frames, step],
  );

export async function consoleFigures({ stacks = 1000, events = 10000, runs = 5 } = {}) {
  if (!existsSync(CHROMIUM)) return [single('console: skipped', 0, '', { note: `no ${CHROMIUM}` })];
  const dir = scratch();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const empty = await startServer({ db: dir.file('empty.db') });
    const paints = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      await page.goto(`${empty.endpoint}/_cfn-local/console/`);
      await page.getByRole('heading', { name: /^Stacks/ }).waitFor();
      paints.push(
        await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN),
      );
      await page.close();
    }
    await empty.stop();
    const file = dir.file('many.db');
    const stackId = await seed(file, { stacks, events });
    const server = await startServer({ db: file });
    const listed = [];
    const opened = [];
    const loaded = [];
    let stackFrames = [];
    let eventFrames = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.addInitScript(watchFirst, ['.stackrow[data-stack]']);
      await page.goto(`${server.endpoint}/_cfn-local/console/`);
      const first = await page.waitForFunction((sel) => window.__firstFrame[sel], '.stackrow[data-stack]');
      listed.push(await first.jsonValue());
      stackFrames = stackFrames.concat(await scrollFrames(page, '.vlist'));
      // the click on a stack, as the page sees it: the hash changes, and the time runs to its first event's frame,
      // then to the frame where all of them are in (the console reads the newest first, then the rest)
      const times = await page.evaluate(
        async (hash) => {
          const t0 = performance.now();
          const shown = window.__watch('.eventrow[data-logical-id]');
          location.hash = hash;
          const first = (await shown) - t0;
          return [first, (await window.__gone('reading the older ones')) - t0];
        },
        `#/stack/${encodeURIComponent(stackId)}`,
      );
      opened.push(times[0]);
      loaded.push(times[1]);
      eventFrames = eventFrames.concat(await scrollFrames(page, '.vlist'));
      await page.close();
    }
    await server.stop();
    return [
      figure('console: first contentful paint (no stacks)', paints, 'ms', { target: '< 500' }),
      figure(`console: navigation → first of ${stacks} stacks listed`, listed, 'ms', { target: '< 500' }),
      figure(`console: frame time scrolling ${stacks} stacks`, stackFrames, 'ms', { note: 'p99 = the slowest frames' }),
      figure(`console: open a stack → first of ${events} events shown`, opened, 'ms', { target: '< 500' }),
      figure(`console: open a stack → all ${events} events in`, loaded, 'ms'),
      figure(`console: frame time scrolling ${events} events`, eventFrames, 'ms', { note: '16.7 = 60 fps' }),
    ];
  } finally {
    await browser.close();
    dir.remove();
  }
}
