import type { Area } from '../cells/address'

/** One source cell as a pivot cache holds it: blank, number, text, boolean, date (serial) or error. */
export type PivotValue =
  | { k: 'm' }
  | { k: 'n'; v: number }
  | { k: 's'; v: string }
  | { k: 'b'; v: boolean }
  | { k: 'd'; v: number }
  | { k: 'e'; v: string }

const KINDS = ['m', 'n', 's', 'b', 'd', 'e'] as const
/** The blank value: one object for every empty cell. */
export const BLANK: PivotValue = Object.freeze({ k: 'm' })

/**
 * One source column: a kind byte and a number or a string per record, not an object per cell (a
 * 50,000 x 12 source is 600,000 cells). `at` builds the value a reader asks for.
 */
export class PivotColumn {
  private readonly kinds: Uint8Array
  private numbers: Float64Array | undefined
  private texts: (string | undefined)[] | undefined

  constructor(readonly length: number) {
    this.kinds = new Uint8Array(length)
  }

  set(i: number, value: PivotValue): void {
    switch (value.k) {
      case 'm':
        this.kinds[i] = 0
        return
      case 'n':
      case 'd':
        this.numbers ??= new Float64Array(this.length)
        this.numbers[i] = value.v
        break
      case 'b':
        this.numbers ??= new Float64Array(this.length)
        this.numbers[i] = value.v ? 1 : 0
        break
      default:
        this.texts ??= new Array<string | undefined>(this.length)
        this.texts[i] = value.v
    }
    this.kinds[i] = KINDS.indexOf(value.k)
  }

  at(i: number): PivotValue {
    switch (this.kinds[i]) {
      case 1:
        return { k: 'n', v: this.numbers![i]! }
      case 2:
        return { k: 's', v: this.texts![i]! }
      case 3:
        return { k: 'b', v: this.numbers![i] === 1 }
      case 4:
        return { k: 'd', v: this.numbers![i]! }
      case 5:
        return { k: 'e', v: this.texts![i]! }
      default:
        return BLANK
    }
  }
}

export interface PivotSource {
  sheet: string
  area: Area
  /** Header names, made unique (a repeated name gets 2, 3… as Excel does). */
  fields: string[]
  /** columns[field].at(record) */
  columns: PivotColumn[]
  records: number
  /** Number format of the first dated cell of each date column (labels keep it). */
  dateFormats: (string | undefined)[]
}

export const SUMMARIES = ['sum', 'count', 'average', 'min', 'max', 'count_numbers', 'product'] as const
export type Summary = (typeof SUMMARIES)[number]

/** A pivot table as asked for, by field names. */
export interface PivotRequest {
  source: string
  name?: string
  rows: string[]
  columns: string[]
  values: { field: string; summary: Summary; name?: string; number_format?: string }[]
  filters: { field: string; include?: (string | number | boolean)[] }[]
}

/** What a pivot table shows, by source field index. */
export interface PivotSpec {
  name: string
  rows: number[]
  columns: number[]
  values: { field: number; summary: Summary; name: string; numberFormat?: string }[]
  /** Only records whose item in `field` is one of `include` (item labels, any case) count; no include: all. */
  filters: { field: number; include?: string[] }[]
}

/** A computed cell: a number, text, boolean, date serial or error code. */
export type OutValue =
  | number
  | string
  | boolean
  | { date: number; numFmt?: string }
  | { error: string }
  | { number: number; numFmt: string }

export interface FieldItems {
  /** Distinct values in pivot order (numbers and dates, text, booleans, errors, blank last). */
  items: PivotValue[]
  /** record -> position in `items`. */
  ofRecord: Int32Array
  hidden: boolean[]
}

export interface PivotResult {
  spec: PivotSpec
  /** Items of every field on an axis or filtered. */
  fieldItems: Map<number, FieldItems>
  rowTuples: number[][]
  colTuples: number[][]
  /** Rows of cells from the target cell down (page filters first); null = empty cell. */
  grid: (OutValue | null)[][]
  /** Rows above the table: page filters and the blank row after them. */
  pageRows: number
  tableRows: number
  tableColumns: number
  headerRows: number
  /** Records that passed the filters. */
  counted: number
}

/** A pivot table made since the last save: its parts are written by the save. */
export interface PendingPivot {
  sheet: string
  source: PivotSource
  result: PivotResult
  /** The table on its sheet (page filters sit above it). */
  location: Area
  /** Where the computed cells start (the target cell). */
  anchor: { row: number; col: number }
  cacheId: number
  /** As asked, by field names: a refresh builds it again from the source as it is then. */
  request: PivotRequest
}
