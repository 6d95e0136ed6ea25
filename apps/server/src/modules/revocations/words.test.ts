import { describe, expect, it } from 'vitest';
import { languageOfWords, normalizeReply, readReply } from './words.ts';

describe('a reply to a code text (FCC 24-24)', () => {
  it('is a revocation when it is a per-se word, in any case, with punctuation, emoji or courtesy', () => {
    for (const body of [
      'STOP',
      'stop',
      ' Stop. ',
      'STOP!!!',
      'Stop 🛑',
      'QUIT',
      'End',
      'revoke',
      'Opt out',
      'opt-out',
      'OPTOUT',
      'cancel',
      'UNSUBSCRIBE',
      'unsubscribe me',
      'Stop please',
      'please STOP now, thanks',
      'STOP ALL',
      'stop stop stop',
    ])
      expect(readReply(body).kind, body).toBe('revocation');
  });

  it('reads the Spanish equivalents and their variants, accents or not', () => {
    for (const body of [
      'ALTO',
      'Alto, gracias',
      'PARAR',
      'Para',
      'BAJA',
      'Darme de baja',
      'CANCELAR',
      'Cancelar por favor',
      'detener',
      'No más',
      'NO MAS',
      'No me manden más mensajes',
      'Quiero darme de baja de esta lista',
    ])
      expect(readReply(body).kind, body).toBe('revocation');
    expect(readReply('Alto, gracias').words).toEqual(['alto']);
  });

  it('is a revocation when it holds a phrase that can only mean it, wherever', () => {
    for (const body of [
      'Please stop texting me',
      'who is this? stop sending these',
      "Don't text this number again",
      'Remove me from your list',
      'I want to opt out of this',
    ])
      expect(readReply(body).kind, body).toBe('revocation');
  });

  it('keeps other words as possible, naming the per-se word it holds for the member who decides', () => {
    expect(readReply('I need to cancel my appointment')).toEqual({ kind: 'possible', words: ['cancel'] });
    expect(readReply('See you at the end of the day')).toEqual({ kind: 'possible', words: ['end'] });
    expect(readReply('Who is this?')).toEqual({ kind: 'possible', words: [] });
    expect(readReply('')).toEqual({ kind: 'possible', words: [] });
    expect(readReply('🛑')).toEqual({ kind: 'possible', words: [] });
    expect(readReply('STOPPPP')).toEqual({ kind: 'possible', words: [] });
    // A per-se word inside another word is not one.
    expect(readReply('Nonstop deliveries?').words).toEqual([]);
    expect(readReply('Bajamos mañana').words).toEqual([]);
  });

  it('normalises case, accents, apostrophes and punctuation, and survives odd text', () => {
    expect(normalizeReply('  ¡NO MÁS!  ')).toBe('no mas');
    expect(normalizeReply('Don’t   TEXT…')).toBe('dont text');
    expect(normalizeReply('ＳＴＯＰ')).toBe('stop'); // full-width letters (NFKD)
    expect(readReply('ＳＴＯＰ').kind).toBe('revocation');
    // A lone surrogate is not a letter: it becomes a space, as any other symbol.
    expect(readReply('stop \ud800').kind).toBe('revocation');
    expect(readReply('x'.repeat(2000)).kind).toBe('possible');
  });

  it('tells the language of its recognised words, which its one confirmation text answers in', () => {
    expect(languageOfWords(readReply('ALTO').words)).toBe('es');
    expect(languageOfWords(readReply('Alto, gracias').words)).toBe('es');
    expect(languageOfWords(readReply('no me manden más mensajes').words)).toBe('es');
    expect(languageOfWords(readReply('STOP').words)).toBe('en');
    expect(languageOfWords(readReply('please stop texting me').words)).toBe('en');
    expect(languageOfWords(readReply('Who is this?').words)).toBeNull();
  });
});
