// Figures: the {name, value, unit, n, p50, p99} objects the harness prints, and the statistics behind them.

export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => percentile(values, 50);

const round = (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1000) / 1000 : (v ?? null));

/** A figure from samples: value is the median unless `value` is given. */
export function figure(name, samples, unit, extra = {}) {
  const list = Array.isArray(samples) ? samples : [samples];
  return {
    name,
    value: round(extra.value ?? median(list)),
    unit,
    n: list.length,
    p50: round(median(list)),
    p99: round(percentile(list, 99)),
    ...(extra.target !== undefined ? { target: extra.target } : {}),
    ...(extra.note !== undefined ? { note: extra.note } : {}),
  };
}

/** A single number (a count, a ratio, a yes/no) as a figure. */
export function single(name, value, unit, extra = {}) {
  return { name, value: round(value), unit, n: 1, p50: null, p99: null, ...extra };
}

/** A figure judged against its target carries `pass`; the table shows it beside the target. */
const verdict = (f) => (f.pass === undefined ? '' : f.pass ? 'met' : 'MISSED');

export function table(figures) {
  const rows = figures.map((f) =>
    [
      f.name,
      String(f.value),
      f.unit,
      String(f.n),
      f.p50 ?? '',
      f.p99 ?? '',
      f.target ?? '',
      verdict(f),
      f.note ?? '',
    ].map(String),
  );
  const head = ['figure', 'value', 'unit', 'n', 'p50', 'p99', 'target', '', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => (i === 1 || (i >= 3 && i <= 5) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
