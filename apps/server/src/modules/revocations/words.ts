/**
 * What a reply to a code text says about consent (issue #35). FCC 24-24 (47 CFR 64.1200(a)(12), in force since
 * 11 Apr 2025): consent may be revoked by any reasonable means, and a reply of "stop", "quit", "end", "revoke",
 * "opt out", "cancel" or "unsubscribe" is a revocation per se. Other wording is judged on the totality of the
 * circumstances, so it is kept as a possible revocation for a member to decide, with the message shown.
 *
 * A reply is a revocation when, read without case, accents, punctuation or emoji, it is made of per-se words (English,
 * or their Spanish equivalents for the forms' second language) and nothing else but courtesy ("STOP please",
 * "Alto, gracias", "opt-out!!", "UNSUBSCRIBE ME"), or when it holds a phrase that can only mean it ("please stop
 * texting me", "no me manden más mensajes", "darme de baja"). A per-se word inside other words ("the end of the
 * day", "cancel my appointment") is not enough: such a reply is possible, and `words` names what was recognised, so
 * the member deciding sees why it was flagged. Everything else is possible too: the order leaves it to judgement,
 * and Veriform never decides a revocation away.
 */

export type ReplyReading = {
  kind: 'revocation' | 'possible';
  /** The per-se words or phrases recognised, normalised (empty when none). */
  words: string[];
};

/** The FCC's per-se words and their usual variants, and the Spanish equivalents a Spanish form's consumer replies. */
const PER_SE = [
  // English (FCC 24-24), with the spellings carriers and consumers use.
  'stop',
  'stop all',
  'stopall',
  'quit',
  'end',
  'revoke',
  'opt out',
  'optout',
  'cancel',
  'cancel all',
  'unsubscribe',
  'unsub',
  // Spanish.
  'alto',
  'parar',
  'para',
  'pare',
  'baja',
  'dar de baja',
  'darme de baja',
  'darse de baja',
  'cancelar',
  'detener',
  'terminar',
  'revocar',
  'no mas',
];

/** Words that add nothing to a per-se reply: courtesy, the reply's addressee, emphasis. */
const COURTESY = new Set([
  'please',
  'pls',
  'plz',
  'now',
  'me',
  'thanks',
  'thank',
  'you',
  'thx',
  'ok',
  'okay',
  'por',
  'favor',
  'porfavor',
  'gracias',
  'ya',
  'ahora',
]);

/** Phrases that are a revocation wherever they appear in a reply. */
const UNAMBIGUOUS = [
  'unsubscribe',
  'opt out',
  'optout',
  'revoke',
  'stop texting',
  'stop messaging',
  'stop sending',
  'stop contacting',
  'stop calling',
  'do not text',
  'dont text',
  'do not contact',
  'dont contact',
  'remove me',
  'take me off',
  'darme de baja',
  'dar de baja',
  'darse de baja',
  'no me envien',
  'no me manden',
  'no me escriban',
  'no me contacten',
  'no me llamen',
  'no quiero recibir',
  'no mas mensajes',
  'deje de enviar',
  'dejen de enviar',
  'revocar',
];

/** The Spanish ones among the per-se words and the phrases above; every other one is English. */
const SPANISH = new Set([
  'alto',
  'parar',
  'para',
  'pare',
  'baja',
  'dar de baja',
  'darme de baja',
  'darse de baja',
  'cancelar',
  'detener',
  'terminar',
  'revocar',
  'no mas',
  'no me envien',
  'no me manden',
  'no me escriban',
  'no me contacten',
  'no me llamen',
  'no quiero recibir',
  'no mas mensajes',
  'deje de enviar',
  'dejen de enviar',
]);

/**
 * The language of a reply's recognised words (`ReplyReading.words`, the first one's), which its one confirmation text
 * is answered in ("ALTO" in Spanish, "STOP" in English); null when none was recognised.
 */
export function languageOfWords(words: readonly string[]): 'en' | 'es' | null {
  const [first] = words;
  if (first === undefined) return null;
  return SPANISH.has(first) ? 'es' : 'en';
}

/** Lower case, accents and apostrophes removed, anything but letters and digits a single space. */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether `phrase` (normalised words) occurs in `words` as whole words. */
function containsPhrase(words: string[], phrase: string): boolean {
  const parts = phrase.split(' ');
  for (let i = 0; i + parts.length <= words.length; i += 1)
    if (parts.every((part, j) => words[i + j] === part)) return true;
  return false;
}

const PER_SE_LONGEST_FIRST = [...PER_SE].sort((a, b) => b.split(' ').length - a.split(' ').length);

/** Reads per-se phrases from the start of `words`, longest first; null when a word is neither per se nor courtesy. */
function onlyPerSe(words: string[]): string[] | null {
  const found: string[] = [];
  let i = 0;
  while (i < words.length) {
    const word = words[i] ?? '';
    const phrase = PER_SE_LONGEST_FIRST.find((p) => {
      const parts = p.split(' ');
      return parts.every((part, j) => words[i + j] === part);
    });
    if (phrase) {
      found.push(phrase);
      i += phrase.split(' ').length;
    } else if (COURTESY.has(word)) {
      i += 1;
    } else {
      return null;
    }
  }
  return found.length > 0 ? found : null;
}

/** Reads a reply to a code text (its `Body`). */
export function readReply(body: string): ReplyReading {
  const words = normalizeReply(body).split(' ').filter(Boolean);
  const perSe = onlyPerSe(words);
  if (perSe) return { kind: 'revocation', words: [...new Set(perSe)] };
  const unambiguous = UNAMBIGUOUS.filter((phrase) => containsPhrase(words, phrase));
  if (unambiguous.length > 0) return { kind: 'revocation', words: unambiguous };
  return { kind: 'possible', words: PER_SE.filter((phrase) => containsPhrase(words, phrase)) };
}
