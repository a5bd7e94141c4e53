// The template, original and processed, with syntax highlighting (highlight.ts), and the stack policy's view.
import { useState } from 'preact/hooks';
import type { StackDetail } from './details.js';
import { tokens } from './highlight.js';

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
