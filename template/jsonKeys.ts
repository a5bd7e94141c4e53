// Duplicate keys in a JSON template: JSON.parse keeps the last one silently, AWS refuses the template. One linear
// scan of text JSON.parse already accepted, so it needs no second parser.

/** The offset of the first key repeated within one object, or undefined. */
export function duplicateKeyOffset(text: string): number | undefined {
  // One entry per open container: the keys seen so far (objects) or null (arrays).
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      let value = '';
      for (i++; text[i] !== '"'; i++) {
        if (text[i] === '\\') value += text[i++];
        value += text[i];
      }
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        if (keys.has(value)) return start;
        keys.add(value);
        expectKey = false;
      }
    } else if (c === '{') {
      open.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      open.push(null);
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      expectKey = open[open.length - 1] instanceof Set;
    }
  }
  return undefined;
}
