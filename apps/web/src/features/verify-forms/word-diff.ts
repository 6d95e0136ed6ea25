/**
 * A word diff of two consent versions (issue #18): the texts are at most 5,000 characters, so a longest-common-
 * subsequence table over their words (and the spaces between, kept as tokens so the result re-joins exactly) is
 * small; no library needed for the form page.
 */

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const tokens = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  // lengths[i][j]: the longest common run of a[i..] and b[j..], filled from the end.
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] ?? [];
    const next = lengths[i + 1] ?? [];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i] ?? '');
      i++;
      j++;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) {
      push('removed', a[i] ?? '');
      i++;
    } else {
      push('added', b[j] ?? '');
      j++;
    }
  }
  for (; i < a.length; i++) push('removed', a[i] ?? '');
  for (; j < b.length; j++) push('added', b[j] ?? '');
  return parts;
}
