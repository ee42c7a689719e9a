/** biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid cannot be a <table>; this is the ARIA grid pattern */
/** biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus and points at the active cell with aria-activedescendant */
import { useVirtualizer } from '@tanstack/react-virtual'
import {
  type CSSProperties,
  type KeyboardEvent,
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { CellStyle, PreviewCell, PreviewDescription, PreviewRow, SheetInfo } from '../../../shared/ipc'
import { columnName } from '../components/areaReceipt'
import { useSheetRowPages } from './previewApi'
import { type CellChange, changedAt } from './receiptChanges'

type SheetDescription = Extract<PreviewDescription, { kind: 'sheet' }>

export const ROW_HEIGHT = 22
const HEADER_HEIGHT = 22
const ROW_HEADER_WIDTH = 52
/** Rows one request fetches. */
const PAGE_ROWS = 200
/** Columns drawn at most; wider sheets say so. */
export const MAX_GRID_COLUMNS = 200
/** Merged cells whose covered cells are tracked at most (beyond this, merges are not drawn). */
const MAX_COVERED = 200_000

const pixels = (chars: number) => Math.round(chars * 7 + 10)
/** A stored row height (points) on screen; a row without one keeps the grid's height. */
const rowPixels = (points: number | undefined) =>
  points === undefined ? ROW_HEIGHT : Math.max(4, Math.round((points * 4) / 3))

function borderCss(style: string | undefined): string | undefined {
  if (!style) return undefined
  const width =
    style === 'medium' || style.startsWith('medium') ? 2 : style === 'thick' || style === 'double' ? 3 : 1
  const line =
    style === 'double'
      ? 'double'
      : style.includes('dash') || style === 'hair'
        ? 'dashed'
        : style.includes('dot')
          ? 'dotted'
          : 'solid'
  return `${width}px ${line} currentColor`
}

function cellCss(style: CellStyle | undefined, kind: PreviewCell['k']): CSSProperties {
  const css: CSSProperties = {}
  if (kind === 'n' || kind === 'd') css.textAlign = 'right'
  if (kind === 'b' || kind === 'e') css.textAlign = 'center'
  if (!style) return css
  if (style.bold) css.fontWeight = 700
  if (style.italic) css.fontStyle = 'italic'
  if (style.underline) css.textDecoration = 'underline'
  if (style.fill) {
    css.background = style.fill
    // A filled cell keeps the workbook's own text colour (or black), whatever the app's theme.
    css.color = style.color ?? '#111111'
  } else if (style.color) css.color = style.color
  if (style.align) css.textAlign = style.align
  if (style.wrap) css.whiteSpace = 'normal'
  const b = style.borders
  if (b) {
    css.borderTop = borderCss(b.top)
    css.borderRight = borderCss(b.right)
    css.borderBottom = borderCss(b.bottom)
    css.borderLeft = borderCss(b.left)
  }
  return css
}

interface Merge {
  rows: number
  columns: number
}

function mergesOf(info: SheetInfo): { starts: Map<string, Merge>; covered: Set<string> } {
  const starts = new Map<string, Merge>()
  const covered = new Set<string>()
  let budget = MAX_COVERED
  for (const range of info.merges) {
    const [a = '', b = ''] = range.split(':')
    const from = /^([A-Z]+)(\d+)$/.exec(a)
    const to = /^([A-Z]+)(\d+)$/.exec(b)
    if (!from?.[1] || !from[2] || !to?.[1] || !to[2]) continue
    const col = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0)
    const top = Number(from[2])
    const left = col(from[1])
    const rows = Number(to[2]) - top + 1
    const columns = col(to[1]) - left + 1
    budget -= rows * columns
    if (budget < 0) break
    starts.set(`${columnName(left - 1)}${top}`, { rows, columns })
    for (let r = top; r < top + rows; r++)
      for (let c = left; c < left + columns; c++)
        if (r !== top || c !== left) covered.add(`${columnName(c - 1)}${r}`)
  }
  return { starts, covered }
}

interface RowShared {
  columns: number
  widths: number[]
  lefts: number[]
  totalWidth: number
  frozenColumns: number
  styles: CellStyle[]
  sheet: string
  changes: readonly CellChange[]
  compared: ReadonlySet<string> | undefined
  merges: { starts: Map<string, Merge>; covered: Set<string> }
  gridId: string
  changedId: string
  comparedId: string
  pick: (row: number, column: number) => void
}

interface RowProps {
  row: number
  data: PreviewRow | undefined
  /** Offset in the body for a scrolled row; undefined for a frozen row (in the sticky head). */
  top: number | undefined
  height: number
  className: string
  selectedColumn: number | undefined
  shared: RowShared
}

const sameShared = (a: RowShared, b: RowShared) =>
  (Object.keys(a) as (keyof RowShared)[]).every((key) => a[key] === b[key])

/** One row of the grid; re-rendered only when its data, place, selection or the sheet's look change. */
const GridRow = memo(
  function GridRow({ row, data, top, height, className, selectedColumn, shared }: RowProps) {
    const { columns, widths, lefts, totalWidth, frozenColumns, styles, sheet, changes, compared, merges } =
      shared
    const byColumn: (PreviewCell | undefined)[] = []
    for (const cell of data?.cells ?? []) byColumn[cell.c] = cell
    let raised = false
    const cells = []
    for (let column = 1; column <= columns; column++) {
      const ref = `${columnName(column - 1)}${row}`
      const cell = byColumn[column]
      const width = widths[column - 1] ?? 64
      const merge = merges.starts.get(ref)
      const covered = merges.covered.has(ref)
      const changed = changedAt(changes, sheet, row, column)
      const differs = compared?.has(ref) ?? false
      const css: CSSProperties = {
        ...cellCss(cell?.s === undefined ? undefined : styles[cell.s], cell?.k),
        width,
        minWidth: width,
      }
      if (merge) {
        raised = true
        css.width = (lefts[Math.min(column - 1 + merge.columns, columns)] ?? 0) - (lefts[column - 1] ?? 0)
        css.height = merge.rows * ROW_HEIGHT
        css.zIndex = 1
        css.position = 'relative'
      }
      if (column <= frozenColumns) {
        css.position = 'sticky'
        css.left = lefts[column - 1]
        css.zIndex = 2
      }
      const isSelected = column === selectedColumn
      const classes = ['cell']
      if (changed) classes.push('changed')
      if (differs) classes.push('compared')
      if (covered) classes.push('covered')
      if (column <= frozenColumns) classes.push('frozen')
      if (isSelected) classes.push('selected')
      const described = [changed && shared.changedId, differs && shared.comparedId].filter(Boolean).join(' ')
      cells.push(
        <div
          key={column}
          id={`${shared.gridId}-${ref}`}
          role="gridcell"
          aria-colindex={column + 1}
          aria-selected={isSelected}
          aria-describedby={described || undefined}
          data-cell={ref}
          data-changed={changed || undefined}
          data-compared={differs || undefined}
          className={classes.join(' ')}
          style={css}
          title={cell?.f ? `=${cell.f}` : undefined}
          onMouseDown={() => shared.pick(row, column)}
        >
          {covered ? '' : cell?.t}
        </div>,
      )
    }
    const style: CSSProperties & { '--row-height'?: string } =
      top === undefined
        ? { width: totalWidth }
        : {
            position: 'absolute',
            top: 0,
            left: 0,
            width: totalWidth,
            transform: `translateY(${top}px)`,
          }
    if (height !== ROW_HEIGHT) style['--row-height'] = `${height}px`
    if (raised) style.zIndex = 1
    return (
      <div role="row" aria-rowindex={row + 1} className={className} style={style}>
        <div role="rowheader" className="row-header">
          {row}
        </div>
        {cells}
      </div>
    )
  },
  (a, b) =>
    a.row === b.row &&
    a.data === b.data &&
    a.top === b.top &&
    a.height === b.height &&
    a.className === b.className &&
    a.selectedColumn === b.selectedColumn &&
    sameShared(a.shared, b.shared),
)

export interface GridProps {
  description: SheetDescription
  sheet: SheetInfo
  changes: readonly CellChange[]
  /** Cells that differ from the previous version (A1 refs), when comparing. */
  compared: ReadonlySet<string> | undefined
  /** A cell to select and scroll to (set by the change list). */
  jump: { row: number; column: number; seq: number } | undefined
  onSelect?: (cell: { ref: string; text: string; formula?: string | undefined }) => void
}

/** One sheet as a read-only ARIA grid: virtualised rows, frozen panes, widths, styles and merges as stored. */
export function SheetGrid({ description, sheet, changes, compared, jump, onSelect }: GridProps) {
  const gridId = useId()
  const changedId = `${gridId}-changed`
  const comparedId = `${gridId}-compared`
  const scrollRef = useRef<HTMLDivElement>(null)
  const columns = Math.min(Math.max(sheet.columns, 1), MAX_GRID_COLUMNS)
  const frozenColumns = Math.min(sheet.frozen.columns, columns, 10)
  const widths = useMemo(
    () => Array.from({ length: columns }, (_, i) => pixels(sheet.widths[i] ?? sheet.defaultWidth)),
    [columns, sheet],
  )
  const lefts = useMemo(() => {
    const out = [ROW_HEADER_WIDTH]
    for (const w of widths) out.push((out[out.length - 1] ?? 0) + w)
    return out
  }, [widths])
  const totalWidth = lefts[lefts.length - 1] ?? ROW_HEADER_WIDTH
  // A large sheet is described before it is read to its end: its row count is then an estimate and its
  // merges unknown; the answer for a page brings the exact count and the merges once the main has them.
  const [extent, setExtent] = useState<{ rows: number; merges: readonly string[] }>(() => ({
    rows: sheet.rows,
    merges: sheet.merges,
  }))
  const complete = sheet.rowsExact !== false
  const merges = useMemo(() => mergesOf({ ...sheet, merges: [...extent.merges] }), [sheet, extent.merges])
  const rowCount = extent.rows
  const frozenRows = Math.min(sheet.frozen.rows, rowCount, 20)
  const bodyRows = Math.max(0, rowCount - frozenRows)
  const [selected, setSelected] = useState({ row: 1, column: 1 })

  // Stored row heights, read by the virtualiser as rows arrive (rows not loaded yet keep the default).
  const heights = useRef(new Map<number, number>())
  const defaultHeight = sheet.defaultHeight === undefined ? ROW_HEIGHT : rowPixels(sheet.defaultHeight)
  const heightOf = (row: number) => heights.current.get(row) ?? defaultHeight
  let frozenHeight = 0
  for (let r = 1; r <= frozenRows; r++) frozenHeight += heightOf(r)

  const virtualizer = useVirtualizer({
    count: bodyRows,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => heightOf(frozenRows + 1 + index),
    overscan: 12,
    scrollMargin: HEADER_HEIGHT + frozenHeight,
  })
  const items = virtualizer.getVirtualItems()
  const firstRow = frozenRows + 1 + (items[0]?.index ?? 0)
  const lastRow = frozenRows + 1 + (items[items.length - 1]?.index ?? 0)

  const pages = useMemo(() => {
    const wanted = new Set<number>()
    if (frozenRows > 0) wanted.add(0)
    if (bodyRows > 0)
      for (let p = Math.floor((firstRow - 1) / PAGE_ROWS); p <= Math.floor((lastRow - 1) / PAGE_ROWS); p++)
        wanted.add(p)
    // The last page of an estimated sheet: its answer waits for the end of the sheet and tells its extent.
    if (!complete) wanted.add(Math.floor(Math.max(0, sheet.rows - 1) / PAGE_ROWS))
    return [...wanted]
  }, [firstRow, lastRow, frozenRows, bodyRows, complete, sheet.rows])

  const results = useSheetRowPages(description.path, description.version, sheet.name, pages, PAGE_ROWS)
  const rows = new Map<number, PreviewRow>()
  let heightsChanged = false
  let finished: { rows: number; merges?: string[] | undefined } | undefined
  for (const result of results) {
    if (result.data?.sheet.complete) finished = result.data.sheet
    for (const row of result.data?.rows ?? []) {
      rows.set(row.r, row)
      if (row.h !== undefined && heights.current.get(row.r) !== rowPixels(row.h)) {
        heights.current.set(row.r, rowPixels(row.h))
        heightsChanged = true
      }
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measures only when a page brought new heights
  useEffect(() => {
    if (heightsChanged) virtualizer.measure()
  }, [heightsChanged])
  useEffect(() => {
    if (finished && (finished.rows !== extent.rows || (finished.merges && finished.merges !== extent.merges)))
      setExtent({ rows: finished.rows, merges: finished.merges ?? extent.merges })
  }, [finished, extent])
  const failed = results.find((r) => r.isError)?.error

  const cellAt = (row: number, column: number) => rows.get(row)?.cells.find((c) => c.c === column)

  const select = (row: number, column: number) => {
    const r = Math.min(Math.max(row, 1), Math.max(rowCount, 1))
    const c = Math.min(Math.max(column, 1), columns)
    setSelected({ row: r, column: c })
    if (r > frozenRows) virtualizer.scrollToIndex(r - frozenRows - 1, { align: 'auto' })
    const scroller = scrollRef.current
    if (scroller) {
      const frozenWidth = (lefts[frozenColumns] ?? ROW_HEADER_WIDTH) - ROW_HEADER_WIDTH
      const left = (lefts[c - 1] ?? 0) - ROW_HEADER_WIDTH - frozenWidth
      const right = lefts[c] ?? 0
      if (c > frozenColumns && left < scroller.scrollLeft) scroller.scrollLeft = left
      else if (right > scroller.scrollLeft + scroller.clientWidth)
        scroller.scrollLeft = right - scroller.clientWidth
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: a jump is a one-off request, keyed by seq
  useEffect(() => {
    if (!jump) return
    select(jump.row, jump.column)
    scrollRef.current?.focus()
  }, [jump?.seq])

  const selectedRef = `${columnName(selected.column - 1)}${selected.row}`
  const selectedCell = cellAt(selected.row, selected.column)
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports the selection when it or its content changes
  useEffect(() => {
    onSelect?.({ ref: selectedRef, text: selectedCell?.t ?? '', formula: selectedCell?.f })
  }, [selectedRef, selectedCell?.t, selectedCell?.f])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_HEIGHT) - 2)
    const moves: Record<string, [number, number]> = {
      ArrowDown: [1, 0],
      ArrowUp: [-1, 0],
      ArrowRight: [0, 1],
      ArrowLeft: [0, -1],
      PageDown: [page, 0],
      PageUp: [-page, 0],
    }
    const move = moves[e.key]
    if (move) {
      e.preventDefault()
      select(selected.row + move[0], selected.column + move[1])
    } else if (e.key === 'Home') {
      e.preventDefault()
      select(e.ctrlKey ? 1 : selected.row, 1)
    } else if (e.key === 'End') {
      e.preventDefault()
      select(e.ctrlKey ? rowCount : selected.row, columns)
    }
  }

  const pick = useCallback((row: number, column: number) => setSelected({ row, column }), [])
  const shared: RowShared = {
    columns,
    widths,
    lefts,
    totalWidth,
    frozenColumns,
    styles: description.styles,
    sheet: sheet.name,
    changes,
    compared,
    merges,
    gridId,
    changedId,
    comparedId,
    pick,
  }
  const renderRow = (row: number, top: number | undefined, className = 'grid-row') => (
    <GridRow
      key={row}
      row={row}
      data={rows.get(row)}
      top={top}
      height={heightOf(row)}
      className={className}
      selectedColumn={row === selected.row ? selected.column : undefined}
      shared={shared}
    />
  )

  return (
    <>
      <span id={changedId} hidden>
        Changed by the run
      </span>
      <span id={comparedId} hidden>
        Changed since the previous version
      </span>
      {failed && (
        <p className="banner banner-error" role="alert">
          Rows could not be read: {failed.message}
        </p>
      )}
      <div
        ref={scrollRef}
        className="grid-scroll"
        role="grid"
        aria-readonly="true"
        aria-label={`${sheet.name} (read only)`}
        aria-rowcount={rowCount + 1}
        aria-colcount={columns + 1}
        aria-activedescendant={`${gridId}-${selectedRef}`}
        aria-multiselectable="false"
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="sheet-grid"
      >
        <div role="rowgroup" className="grid-head" style={{ width: totalWidth }}>
          <div role="row" aria-rowindex={1} className="grid-row header-row" style={{ width: totalWidth }}>
            <div role="columnheader" className="corner" aria-label="Row numbers" />
            {widths.map((width, i) => (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: the column's position is its identity
                key={i}
                role="columnheader"
                aria-colindex={i + 2}
                className={i < frozenColumns ? 'column-header frozen' : 'column-header'}
                style={{
                  width,
                  minWidth: width,
                  ...(i < frozenColumns ? { position: 'sticky', left: lefts[i], zIndex: 3 } : {}),
                }}
              >
                {columnName(i)}
              </div>
            ))}
          </div>
          {Array.from({ length: frozenRows }, (_, i) => renderRow(i + 1, undefined, 'grid-row frozen-row'))}
        </div>
        <div
          role="rowgroup"
          className="grid-body"
          style={{ height: virtualizer.getTotalSize(), width: totalWidth }}
        >
          {items.map((item) =>
            renderRow(frozenRows + 1 + item.index, item.start - virtualizer.options.scrollMargin),
          )}
        </div>
      </div>
    </>
  )
}
