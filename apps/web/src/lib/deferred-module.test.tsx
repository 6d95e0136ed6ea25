import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferredModule } from './deferred-module';

type Code = { name: string };

function deferred() {
  let resolve: (code: Code) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const importer = vi.fn(
    () =>
      new Promise<Code>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { importer, resolve: (code: Code) => resolve(code), reject: (error: Error) => reject(error) };
}

function Shown({ module }: { module: ReturnType<typeof deferredModule<Code>> }) {
  const code = module.useModule();
  return <p>{code ? code.name : 'stand-in'}</p>;
}

describe('deferredModule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the stand-in until the code arrives, fetching it once however often it is asked for', async () => {
    const { importer, resolve } = deferred();
    const module = deferredModule(importer);
    render(<Shown module={module} />);
    expect(screen.getByText('stand-in')).toBeInTheDocument();
    const first = module.load();
    const second = module.load();
    expect(importer).toHaveBeenCalledTimes(1);
    await act(async () => {
      resolve({ name: 'the real one' });
      await first;
      await second;
    });
    expect(screen.getByText('the real one')).toBeInTheDocument();
  });

  it('fetches by itself a second after the page has shown, not before', async () => {
    vi.useFakeTimers();
    const { importer, resolve } = deferred();
    const module = deferredModule(importer);
    render(<Shown module={module} />);
    act(() => vi.advanceTimersByTime(900));
    expect(importer).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(200));
    expect(importer).toHaveBeenCalledTimes(1);
    await act(async () => {
      resolve({ name: 'arrived' });
      await module.load();
    });
    expect(screen.getByText('arrived')).toBeInTheDocument();
  });

  it('tries again after a failed fetch', async () => {
    const failing = deferred();
    const module = deferredModule(failing.importer);
    const attempt = module.load();
    failing.reject(new Error('offline'));
    await expect(attempt).rejects.toThrow('offline');
    module.load();
    expect(failing.importer).toHaveBeenCalledTimes(2);
  });
});
