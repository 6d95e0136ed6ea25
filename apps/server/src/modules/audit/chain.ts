import { createHash, randomBytes } from 'node:crypto';
import type { AuditActor, AuditChanges, AuditTarget } from '@veriform/contracts';

/**
 * The audit log's hash chain (ADR 19). Each event's `hash` is the SHA-256 (hex) of its canonical JSON — the fields
 * below, keys sorted, no whitespace, `prevHash` included — so an edited, removed or reordered event breaks the chain at
 * that point for anyone holding an export. Written by the server, checked by `verifyChain` here, by
 * `npm run audit:verify` and by anyone with the published rule.
 */

/** The prevHash of an account's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers: every field of the event but its row id and the hash itself. */
export type ChainedFields = {
  account: number;
  sequence: number;
  occurredAt: string;
  actor: AuditActor;
  action: string;
  targets: AuditTarget[];
  changes: AuditChanges;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  prevHash: string;
};

/** JSON with object keys sorted at every depth (RFC 8785's ordering for our values: strings, numbers, null, lists). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function hashEvent(fields: ChainedFields): string {
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/**
 * An event's canonical JSON before its place in the chain is known: `hashEvent`'s text with two markers standing for
 * the sequence (a number, so its marker takes the quotes its string would have) and the previous hash. The database
 * replaces them under the chain head's lock and hashes the result (migration 0027's append_audit_event), which then
 * equals `hashEvent` of the filled-in fields. The markers are random per event, so no field's text can contain them.
 */
export function chainTemplate(fields: Omit<ChainedFields, 'sequence' | 'prevHash'>): {
  text: string;
  sequenceMarker: string;
  prevHashMarker: string;
} {
  const nonce = randomBytes(16).toString('hex');
  const sequence = `sequence-${nonce}`;
  const prevHashMarker = `prev-hash-${nonce}`;
  const text = canonicalJson({ ...fields, sequence, prevHash: prevHashMarker });
  return { text, sequenceMarker: JSON.stringify(sequence), prevHashMarker };
}

export type ChainedEvent = ChainedFields & { hash: string };

export type ChainCheck =
  | { ok: true; count: number }
  | { ok: false; count: number; sequence: number; reason: string };

/**
 * Checks events of one account in chain order (ascending sequence): each hash recomputed, each link to the one
 * before, no gap. An export may start after retention removed the oldest: its first event's prevHash must then be the
 * `lastRemovedHash` an `audit.pruned` event of the export names.
 */
export async function verifyChain(
  events: AsyncIterable<ChainedEvent> | Iterable<ChainedEvent>,
): Promise<ChainCheck> {
  let count = 0;
  let previous: ChainedEvent | null = null;
  let firstPrevHash: string | null = null;
  const prunedThrough = new Set<string>();
  for await (const event of events) {
    count += 1;
    const fail = (reason: string): ChainCheck => ({ ok: false, count, sequence: event.sequence, reason });
    const { hash, ...fields } = event;
    if (hashEvent(fields) !== hash) return fail('its hash does not match its content');
    if (previous) {
      if (event.account !== previous.account) return fail('it belongs to another account');
      if (event.sequence !== previous.sequence + 1)
        return fail(`it follows event ${previous.sequence}: a gap`);
      if (event.prevHash !== previous.hash)
        return fail('its prevHash is not the hash of the event before it');
    } else if (event.sequence === 1) {
      if (event.prevHash !== GENESIS_HASH) return fail('the first event does not start the chain');
    } else {
      firstPrevHash = event.prevHash;
    }
    if (event.action === 'audit.pruned') {
      const removed = event.changes?.lastRemovedHash;
      if (typeof removed === 'string') prunedThrough.add(removed);
    }
    previous = event;
  }
  if (firstPrevHash !== null && !prunedThrough.has(firstPrevHash)) {
    return {
      ok: false,
      count,
      sequence: (previous?.sequence ?? 0) - count + 1,
      reason: 'the export starts mid-chain without an audit.pruned event naming what came before',
    };
  }
  return { ok: true, count };
}
