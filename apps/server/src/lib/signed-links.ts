import { type TokenLinkKind, tokenLinkPath } from '@veriform/contracts';
import { decodeUid, encodeUid, type TokenSigner } from './tokens.ts';

/**
 * One kind of link in an e-mail that proves its holder read the mailbox (verify e-mail, reset password, change e-mail
 * and its cancel link): `{PUBLIC_URL}{page}{uidb64}/{token}/` with a stateless token (lib/tokens.ts). Its purpose
 * names both the page (contracts' tokenLinkPages) and the token's signing domain, so a token of one kind never works
 * on another's page.
 *
 * The link is about a subject: the user, or the user with what the link acts on (a pending e-mail change). `load`
 * finds the subject of the link's user (undefined when there is nothing to act on), and `state` lists the subject's
 * values the token covers: values that change once the link has done its work, so a used link stops working.
 */
export function signedLink<Subject>(spec: {
  tokens: TokenSigner;
  publicUrl: string;
  purpose: TokenLinkKind;
  maxAgeSeconds: number;
  load: (userId: number) => Promise<Subject | undefined>;
  userIdOf: (subject: Subject) => number;
  state: (subject: Subject) => readonly string[];
}) {
  const { tokens, publicUrl, purpose, maxAgeSeconds, load, userIdOf, state } = spec;

  /** Built from PUBLIC_URL, never from the request's Host header. */
  function linkFor(subject: Subject): string {
    const userId = userIdOf(subject);
    const token = tokens.make(purpose, userId, state(subject));
    return `${publicUrl}${tokenLinkPath(purpose, encodeUid(userId), token)}`;
  }

  /** The subject the link is still good for, as it is now; undefined when the link is malformed, used or expired. */
  async function subjectFor(uidb64: string, token: string): Promise<Subject | undefined> {
    const userId = decodeUid(uidb64);
    if (userId === null) return undefined;
    const subject = await load(userId);
    if (!subject || !tokens.check(purpose, userId, state(subject), token, maxAgeSeconds)) return undefined;
    return subject;
  }

  /** For the link's page GET: checks only, consumes nothing (mail scanners prefetch links; DESIGN §5). */
  async function isValid(uidb64: string, token: string): Promise<boolean> {
    return (await subjectFor(uidb64, token)) !== undefined;
  }

  return { linkFor, subjectFor, isValid };
}

export type SignedLink<Subject> = ReturnType<typeof signedLink<Subject>>;
