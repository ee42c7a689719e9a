// Local typings for fast-formula-parser (the package ships none); only what Bureau uses.
declare module 'fast-formula-parser' {
  export interface SheetPosition {
    sheet: string
    row: number
    col: number
  }
  export interface RangeRef {
    sheet: string
    from: { row: number; col: number }
    to: { row: number; col: number }
  }
  export interface FunctionParam {
    value: unknown
    isArray: boolean
    isRangeRef?: boolean
    isCellRef?: boolean
    omitted?: boolean
  }
  export interface ParserOptions {
    onCell?: (ref: SheetPosition) => unknown
    onRange?: (ref: RangeRef) => unknown[][]
    onVariable?: (name: string, sheet: string, position: SheetPosition) => unknown
    functions?: Record<string, (...params: FunctionParam[]) => unknown>
  }
  class FormulaError extends Error {
    constructor(error: string, msg?: string, details?: unknown)
    readonly error: string
  }
  /** A chevrotain recognition error (MismatchedTokenException, NoViableAltException, ...). */
  export interface ParserError {
    name: string
    message: string
    /** The token where parsing failed; an end-of-input token has an empty image and NaN offsets. */
    token?: { image: string; startOffset: number }
    previousToken?: { image: string; startOffset: number }
  }
  class DepParser {
    constructor(options?: { onVariable?: ParserOptions['onVariable'] })
    /** The grammar; `errors` holds the recognition errors of the last parse. */
    readonly parser: { errors: ParserError[] }
    parse(formula: string, position: SheetPosition, ignoreError?: boolean): Array<SheetPosition | RangeRef>
  }
  class FormulaParser {
    constructor(options?: ParserOptions)
    parse(formula: string, position: SheetPosition, allowReturnArray?: boolean): unknown
    static DepParser: typeof DepParser
    static FormulaError: typeof FormulaError
  }
  export default FormulaParser
}
