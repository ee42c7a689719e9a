import { rewriteRefs } from './formulaRefs'

/** String literals and quoted sheet names: nothing inside them is a number or a reference. */
const QUOTED = /("(?:[^"]|"")*"|'(?:[^']|'')*')/
/** `1e5`, `2.5E3`: a number whose exponent has no sign (the engine's lexer wants `1E+5`). */
const BARE_EXPONENT = /(?<![\w.$])(\d+(?:\.\d*)?|\.\d+)([eE])(?=\d)/g
/** A cheap first look for a whole-line reference with `$` (false hits only cost the full rewrite). */
const DOLLAR_LINE = /\$[A-Za-z]{1,3}:|(?<![A-Za-z])\$\d+:|:\$?[A-Za-z]{1,3}(?![\w$])|:\$\d/

function signExponents(formula: string): string {
  return formula
    .split(QUOTED)
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(BARE_EXPONENT, '$1$2+')))
    .join('')
}

/** `$A:$B`, `A:$B`, `$1:$2`: whole columns or rows with a `$` somewhere. */
function dropWholeLineDollars(formula: string): string {
  return rewriteRefs(formula, (ref) => {
    const end = ref.end
    const whole = end !== undefined && (ref.start.row === undefined || ref.start.col === undefined)
    if (!whole || !(ref.start.colAbs || ref.start.rowAbs || end.colAbs || end.rowAbs)) return undefined
    return {
      ...ref,
      start: { ...ref.start, colAbs: false, rowAbs: false },
      end: { ...end, colAbs: false, rowAbs: false },
    }
  })
}

/**
 * The formula as fast-formula-parser reads it; the checker and the evaluator both go through here.
 * The engine misreads whole columns with `$` (`$A:$B` becomes columns -727 to -1) and cannot lex whole
 * rows with `$` (`$1:$2`); `$` changes nothing when evaluating, so those references lose it. Its lexer
 * also refuses an exponent without a sign (`1e5`), which spreadsheets accept. Everything else is left
 * as written; the cell keeps the formula as the user gave it.
 */
export function forEngine(formula: string): string {
  let text = formula
  if (/\d[eE]\d/.test(text)) text = signExponents(text)
  if (text.includes('$') && DOLLAR_LINE.test(text)) text = dropWholeLineDollars(text)
  return text
}
