import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/** The README's snippets are the example files, byte for byte (the examples are what the server's tests run). */
describe('the README', () => {
  it('shows every example, each exactly as its file', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const shown = [...readme.matchAll(/```ts\n\/\/ examples\/(\S+)\n([\s\S]*?)```/g)].map(
      ([, name, text]) => ({
        name,
        text,
      }),
    );
    const files = (await readdir(new URL('../examples/', import.meta.url))).sort();
    expect(shown.map(({ name }) => name).sort()).toEqual(files);
    for (const { name, text } of shown)
      expect(text, name).toBe(await readFile(new URL(`../examples/${name}`, import.meta.url), 'utf8'));
  });
});
