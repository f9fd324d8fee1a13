/**
 * Sentences a person reads, composed one way wherever a schema message meets a field's label (the forms, the import's
 * reasons): a predicate ("must be 9 to 18 digits") follows the label, a whole clause ("account number and IFSC go
 * together") stands alone with a capital, and a sentence ends with one full stop, never two. `messageFaults` names
 * what no person would write; the "every message" test runs it over every reason the import, the forms and the
 * status bar can produce.
 */

/** Words a schema message starts with when it is a predicate about its field. */
const PREDICATE = /^(must|is|are|should|cannot|needs?|has|does|was)\b/;

/** The text as a sentence: a capital first and exactly one closing mark. */
export function asSentence(text: string): string {
  const t = text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The text to embed inside a sentence: its closing full stop removed, so "…is up." then ". Use" does not double. */
export function asClause(text: string): string {
  return text.trim().replace(/\.+$/, '');
}

/** A schema message about a field, as a sentence: "IFSC must be…", or the clause alone when it is not a predicate. */
export function fieldSentence(label: string, message: string): string {
  const m = message.trim();
  return PREDICATE.test(m) ? asSentence(`${label} ${asClause(m)}`) : asSentence(m);
}

/** Emoji and other pictographs: a reason or a confirmation is plain words. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

/**
 * What no person would write in a message, each named: a word twice in a row, two marks of punctuation together (an
 * ellipsis "…" is one mark), a field's name glued to a clause that is not about it, an emoji.
 */
export function messageFaults(text: string, fieldLabels: readonly string[] = []): string[] {
  const faults: string[] = [];
  // What is quoted is data (the character a name may not have), not the message's own words.
  const prose = text.replace(/“[^”]*”/gu, '“”');
  const doubled = /\b(\p{L}+(?:\s+\p{L}+)?)\s+\1\b/iu.exec(prose);
  if (doubled) faults.push(`doubled words "${doubled[0]}"`);
  const marks = /[.,;:!?]\s*[.,;:!?]/.exec(prose);
  if (marks) faults.push(`doubled punctuation "${marks[0]}"`);
  for (const label of fieldLabels) {
    const escaped = label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const glued = new RegExp(`(?:^|[.;]\\s+)${escaped} (\\p{Ll}+)`, 'u').exec(prose);
    if (glued && !PREDICATE.test(glued[1]!) && !/^(and|or|of|for|to|with)$/.test(glued[1]!)) {
      faults.push(`field name glued to a sentence "${glued[0].trim()}"`);
    }
  }
  if (PICTOGRAPH.test(prose)) faults.push('an emoji');
  return faults;
}
