/**
 * Cursor pages (`{data, hasMore, nextCursor}`; the next page is asked with `startingAfter: nextCursor`) and the
 * auto-pagination over them, as Stripe's SDK has it: `await list()` is one page, `for await (… of list())` every object
 * of every page, fetched one page at a time as the loop goes.
 */

export type PageBody<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly hasMore: boolean;
  readonly nextCursor: string | null;
  readonly #fetchAfter: (cursor: string) => Promise<Page<T>>;

  constructor(body: PageBody<T>, fetchAfter: (cursor: string) => Promise<Page<T>>) {
    this.data = body.data;
    this.hasMore = body.hasMore;
    this.nextCursor = body.nextCursor;
    this.#fetchAfter = fetchAfter;
  }

  /** The page after this one; null on the last page. */
  nextPage(): Promise<Page<T> | null> {
    if (!this.hasMore || this.nextCursor === null) return Promise.resolve(null);
    return this.#fetchAfter(this.nextCursor);
  }

  /** Every object of this page and the pages after it. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return objectsFrom(this);
  }
}

async function* objectsFrom<T>(first: Page<T>): AsyncGenerator<T> {
  for (let page: Page<T> | null = first; page; page = await page.nextPage()) yield* page.data;
}

/** What a `list()` answers: a promise of the first page that is also an async iterable of every object. */
export type ListPromise<T> = Promise<Page<T>> &
  AsyncIterable<T> & {
    /** Every object of every page, from the first, fetched as the loop asks for them. */
    autoPaginate(): AsyncIterable<T>;
    /** Every object into an array; throws past `limit` objects rather than fill memory with an account's history. */
    toArray(options: { limit: number }): Promise<T[]>;
  };

export type ListQuery = { startingAfter?: string };

/** The list of `fetchPage` from `query`, each next page asked with the same query and the cursor. */
export function listOf<T, Q extends ListQuery>(
  query: Q,
  fetchPage: (query: Q) => Promise<PageBody<T>>,
): ListPromise<T> {
  const pageFrom = async (pageQuery: Q): Promise<Page<T>> =>
    new Page(await fetchPage(pageQuery), (cursor) => pageFrom({ ...query, startingAfter: cursor }));
  const first = pageFrom(query);
  const autoPaginate = (): AsyncIterable<T> => ({
    [Symbol.asyncIterator]: async function* () {
      yield* await first;
    },
  });
  return Object.assign(first, {
    [Symbol.asyncIterator]: () => autoPaginate()[Symbol.asyncIterator](),
    autoPaginate,
    async toArray({ limit }: { limit: number }): Promise<T[]> {
      const all: T[] = [];
      for await (const object of autoPaginate()) {
        if (all.length === limit) throw new RangeError(`more than ${limit} objects in this list`);
        all.push(object);
      }
      return all;
    },
  });
}
