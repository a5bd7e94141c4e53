// The template, original and processed, with syntax highlighting: a small tokenizer for JSON and YAML suffices.
import { useState } from 'preact/hooks';
import type { StackDetail } from './details.js';

/** One token kind per rule, tried in order at each position; text between matches stays plain. */
const RULES: [string, RegExp][] = [
  ['comment', /#[^\n]*/y],
  ['key', /"(?:[^"\\\n]|\\.)*"(?=\s*:)|[A-Za-z_][\w.-]*(?=:(\s|$))/y],
  ['string', /"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'/y],
  ['tag', /![A-Za-z]+/y],
  ['number', /-?\b\d+(?:\.\d+)?\b/y],
  ['literal', /\b(?:true|false|null)\b/y],
];

export function tokens(text: string): [string | undefined, string][] {
  const out: [string | undefined, string][] = [];
  let plain = '';
  let i = 0;
  outer: while (i < text.length) {
    for (const [kind, re] of RULES) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && m[0]) {
        if (plain) out.push([undefined, plain]);
        plain = '';
        out.push([kind, m[0]]);
        i += m[0].length;
        continue outer;
      }
    }
    plain += text[i++];
  }
  if (plain) out.push([undefined, plain]);
  return out;
}

/** Long templates are shown plain past this size: highlighting them would cost more than it helps. */
const HIGHLIGHT_LIMIT = 200_000;

export function Highlighted({ body, label }: { body: string; label: string }) {
  const parts = body.length > HIGHLIGHT_LIMIT ? [[undefined, body] as const] : tokens(body);
  return (
    <pre class="code" aria-label={label} tabIndex={0}>
      <code>
        {parts.map(([kind, text], i) =>
          kind ? (
            <span key={i} class={`t-${kind}`}>
              {text}
            </span>
          ) : (
            text
          ),
        )}
      </code>
    </pre>
  );
}

export function TemplateTab({ detail }: { detail: StackDetail }) {
  const [stage, setStage] = useState<'Original' | 'Processed'>('Original');
  const body = (stage === 'Original' ? detail.TemplateOriginal : detail.TemplateProcessed) ?? '';
  return (
    <>
      <fieldset class="stage">
        <legend>Template stage</legend>
        {(['Original', 'Processed'] as const).map((s) => (
          <label key={s}>
            <input type="radio" name="stage" checked={stage === s} onChange={() => setStage(s)} /> {s}
          </label>
        ))}
      </fieldset>
      <Highlighted body={body} label={`${stage} template`} />
    </>
  );
}
