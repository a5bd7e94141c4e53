// Syntax highlighting of templates and policies: a small tokenizer for JSON and YAML suffices (keys, strings,
// numbers, literals, comments, YAML tags such as !Ref).
/** One token kind per rule, tried in order at each position; text between matches stays plain. */
const RULES: [string, RegExp][] = [
  ['comment', /#[^\n]*/y],
  // a YAML key may hold double colons: Fn::ForEach::Topics:
  ['key', /"(?:[^"\\\n]|\\.)*"(?=\s*:)|[A-Za-z_](?:[\w.-]|::)*(?=:(\s|$))/y],
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
