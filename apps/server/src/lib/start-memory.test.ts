import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartMemory } from './start-memory.ts';

describe('releaseStartMemory', () => {
  it('collects without leaving the collector exposed to the app or to contexts made afterwards', () => {
    const hadGc = 'gc' in globalThis;
    releaseStartMemory();
    expect('gc' in globalThis).toBe(hadGc);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
