import { breakPieces } from '@aegis/domain';
import { Fragment } from 'react';

/**
 * A long name, path or value that wraps only at sensible points (ADR 039): after dots, hyphens,
 * slashes and other separators, and at camelCase words in a run too long for a line, never as
 * `displayNam|e`. The browser may break at each `<wbr>`; the text (and its copy) is unchanged.
 * Give the container `overflowWrap: 'break-word'` as the last resort for a piece wider than it.
 */
export function BreakableText({ text, longRun }: { text: string; longRun?: number }) {
  const pieces = breakPieces(text, longRun);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {piece}
          {i < pieces.length - 1 && !/\s$/.test(piece) && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
