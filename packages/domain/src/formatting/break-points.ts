/**
 * Where a long name, id or value may wrap (ADR 039). Screens and PDFs wrap long unbroken texts
 * (setting paths, GUIDs, policy ids, enum values) at the points this rule gives, never at a place
 * of the renderer's choosing such as `displayNam|e` or `Enfo|rced`:
 *
 * 1. after a separator: `- . / \ _ : , ; = @ | [ ] ( )` and spaces (after the last of
 *    several in a row, so '...' and '://' stay whole);
 * 2. only inside a run without separators that is longer than `longRun` characters (a run that
 *    could not fit on a line by itself): before a capital that starts a word (camelCase);
 * 3. a piece that is still longer than `longRun` (hex, base64, a long lower-case word) is cut
 *    into the fewest equal pieces no longer than `longRun`, so no piece is wider than a line.
 *
 * Hyphens and dots come first, so `CA001-Global-AttackSurfaceReduction-AnyApp` wraps after its
 * hyphens and keeps `AttackSurfaceReduction` whole when it fits a line.
 */

/** Characters after which a line may break. */
const SEPARATOR = /[-./\\_:,;=@|[\]()\s]/;

/** The default longest run kept whole: about what fits a narrow table column. */
export const LONG_RUN = 24;

/** camelCase humps inside a run: `reportingBut`, `HTTPSRedirect`. */
const WORD_START = /(?<=[a-z\d])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/** Cuts `text` into the fewest pieces of at most `size` characters, of (nearly) equal length. */
function chunk(text: string, size: number): string[] {
  const count = Math.ceil(text.length / size);
  const length = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += length) pieces.push(text.slice(i, i + length));
  return pieces;
}

/** Splits a run without separators (rules 2 and 3). */
function splitRun(run: string, longRun: number): string[] {
  if (run.length <= longRun) return [run];
  const words = run.split(WORD_START);
  return words.flatMap((word) => (word.length > longRun ? chunk(word, longRun) : [word]));
}

/**
 * The text cut into pieces at its break points: `breakPieces(t).join('') === t`, and a line may
 * break after each piece but the last.
 */
export function breakPieces(text: string, longRun = LONG_RUN): string[] {
  const pieces: string[] = [];
  let run = '';
  const flush = (separator: string) => {
    if (run === '' && pieces.length > 0) {
      // separators in a row stay together: '...', '://', '],['
      pieces[pieces.length - 1] += separator;
      return;
    }
    const parts = splitRun(run, longRun);
    // the separator stays with the run before it, as in 'AnyApp-'
    parts[parts.length - 1] += separator;
    pieces.push(...parts.filter((p) => p !== ''));
    run = '';
  };
  for (const char of text) {
    if (SEPARATOR.test(char)) flush(char);
    else run += char;
  }
  if (run !== '') flush('');
  return pieces;
}
