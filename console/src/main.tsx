// The console's entry: the live feed, the stacks it keeps current, and the page chosen by the URL's hash
// (#/ the stacks, #/stack/<ARN> one stack, #/stack-sets the stack sets, #/account the simulated account).
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { feedListeners, follow, get, setToken, Unauthorized, type StackRow } from './api.js';
import { StackList } from './stackList.js';
import { StackView } from './stackView.js';
import { AccountView } from './accountView.js';
import { StackSetsView } from './stackSetsView.js';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function TokenForm({ onToken }: { onToken: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      class="token"
      onSubmit={(e) => {
        e.preventDefault();
        setToken(value);
        onToken();
      }}
    >
      <h2>This server has a control token</h2>
      <label>
        Control token <input type="password" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </label>
      <button type="submit">Open the console</button>
    </form>
  );
}

type StackList = { stacks: StackRow[] };

/** The first read of the stacks starts as the script runs rather than after the first render's effects. */
let firstRead: Promise<StackList> | undefined = get<StackList>('/stacks');
// (a refusal, such as a missing control token, is handled where the read is used)
firstRead.catch(() => undefined);

function useStacks() {
  const stacks = useRef(new Map<string, StackRow>());
  const [version, setVersion] = useState(0);
  const [live, setLive] = useState(false);
  const [needToken, setNeedToken] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let stop = () => {};
    const read = firstRead ?? get<StackList>('/stacks');
    firstRead = undefined;
    read.then(
      ({ stacks: rows }) => {
        for (const s of rows) stacks.current.set(s.StackId, s);
        setNeedToken(false);
        setVersion((v) => v + 1);
        stop = follow((msg) => {
          if (msg.kind === 'stack') stacks.current.set(msg.stack.StackId, msg.stack);
          if (msg.kind === 'reset') {
            for (const [id, s] of stacks.current)
              if ((!msg.account || s.Account === msg.account) && (!msg.region || s.Region === msg.region))
                stacks.current.delete(id);
          }
          for (const l of feedListeners) l(msg);
          if (msg.kind !== 'event') setVersion((v) => v + 1);
        }, setLive);
      },
      (err: unknown) => setNeedToken(err instanceof Unauthorized),
    );
    return () => stop();
  }, [attempt]);
  return { stacks: stacks.current, version, live, needToken, retry: () => setAttempt((a) => a + 1) };
}

function App() {
  const hash = useHash();
  const { stacks, version, live, needToken, retry } = useStacks();
  const list = useMemo(() => [...stacks.values()], [version]);
  const stackId = hash.startsWith('#/stack/') ? decodeURIComponent(hash.slice(8)) : undefined;
  return (
    <>
      <header class="top">
        <a href="#/" class="brand">
          cfn-local
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={!stackId && hash !== '#/account' && hash !== '#/stack-sets' ? 'page' : undefined}>
            Stacks
          </a>
          <a href="#/stack-sets" aria-current={hash === '#/stack-sets' ? 'page' : undefined}>
            Stack sets
          </a>
          <a href="#/account" aria-current={hash === '#/account' ? 'page' : undefined}>
            Simulated account
          </a>
        </nav>
        <span class={`live ${live ? 'on' : 'off'}`} role="status" aria-live="polite">
          {live ? 'Live' : 'Connecting…'}
        </span>
      </header>
      <main id="main">
        {needToken ? (
          <TokenForm onToken={retry} />
        ) : stackId ? (
          <StackView stackId={stackId} row={stacks.get(stackId)} stacks={list} version={version} />
        ) : hash === '#/account' ? (
          <AccountView />
        ) : hash === '#/stack-sets' ? (
          <StackSetsView />
        ) : (
          <StackList stacks={list} />
        )}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
// the static "Loading…" line is what shows before this script runs
root.textContent = '';
render(<App />, root);
