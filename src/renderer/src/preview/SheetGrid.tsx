/** biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid cannot be a <table>; this is the ARIA grid pattern */
/** biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus and points at the active cell with aria-activedescendant */
import { useVirtualizer } from '@tanstack/react-virtual'
import {
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type ReactElement,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { CellStyle, PreviewCell, PreviewDescription, PreviewRow, SheetInfo } from '../../../shared/ipc'
import { columnName, parseCell } from '../components/areaReceipt'
import { SHEET_PAGE_ROWS, useSheetRowPages } from './previewApi'
import type { CellChange } from './receiptChanges'

type SheetDescription = Extract<PreviewDescription, { kind: 'sheet' }>

export const ROW_HEIGHT = 22
const HEADER_HEIGHT = 22
const ROW_HEADER_WIDTH = 52
/** Columns drawn at most; wider sheets say so. */
export const MAX_GRID_COLUMNS = 200
/** Merged cells whose covered cells are tracked at most (beyond this, merges are not drawn). */
const MAX_COVERED = 200_000
/** Rows and columns drawn beyond the visible ones on each side. */
const ROW_OVERSCAN = 6
const COLUMN_OVERSCAN = 2
/**
 * A page of rows is asked for once the pages in view have stayed the same this long, so a fast scroll
 * over thousands of rows does not queue a request for every page it passes (the page it stops at would
 * wait behind them). Pages already read show at once.
 */
const SETTLE_MS = 60

const pixels = (chars: number) => Math.round(chars * 7 + 10)
/** A stored row height (points) on screen; a row without one keeps the grid's height. */
const rowPixels = (points: number | undefined) =>
  points === undefined ? ROW_HEIGHT : Math.max(4, Math.round((points * 4) / 3))
/** Row and column as one number (columns stay far below 2^15). */
const cellKey = (row: number, column: number) => row * 32_768 + column

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
  column: number
  rows: number
  columns: number
}

interface Merges {
  /** Merged areas by their top left cell. */
  starts: Map<number, Merge>
  /** The other cells of merged areas. */
  covered: Set<number>
  /** Merged areas by the row they start on, to draw one that starts left of the columns in view. */
  byRow: Map<number, Merge[]>
}

function mergesOf(ranges: readonly string[]): Merges {
  const merges: Merges = { starts: new Map(), covered: new Set(), byRow: new Map() }
  let budget = MAX_COVERED
  for (const range of ranges) {
    const [a = '', b = ''] = range.split(':')
    const from = parseCell(a)
    const to = parseCell(b)
    if (!from || !to) continue
    const top = from.row
    const left = from.column + 1
    const merge = { column: left, rows: to.row - top + 1, columns: to.column + 1 - left + 1 }
    budget -= merge.rows * merge.columns
    if (budget < 0) break
    merges.starts.set(cellKey(top, left), merge)
    const list = merges.byRow.get(top)
    if (list) list.push(merge)
    else merges.byRow.set(top, [merge])
    for (let r = top; r < top + merge.rows; r++)
      for (let c = left; c < left + merge.columns; c++)
        if (r !== top || c !== left) merges.covered.add(cellKey(r, c))
  }
  return merges
}

/** What every row of one grid shares; one object per sheet and look, so memoised rows keep it. */
interface GridLook {
  names: readonly string[]
  lefts: readonly number[]
  totalWidth: number
  columns: number
  frozenColumns: number
  changes: readonly CellChange[]
  compared: ReadonlySet<string> | undefined
  merges: Merges
  gridId: string
  changedId: string
  comparedId: string
  /** A cell's inline style: its place, width and the workbook's look, one object per column and style. */
  styleOf(column: number, cell: PreviewCell | undefined): CSSProperties
}

const KINDS = ['n', 's', 'b', 'e', 'd'] as const

function gridLook(
  base: Omit<GridLook, 'styleOf'>,
  widths: readonly number[],
  styles: readonly CellStyle[],
): GridLook {
  const looks = new Map<number, CSSProperties>()
  const perColumn: Map<number, CSSProperties>[] = []
  const lookOf = (s: number | undefined, k: PreviewCell['k']) => {
    const key = ((s ?? -1) + 1) * 8 + (k === undefined ? 7 : KINDS.indexOf(k))
    let css = looks.get(key)
    if (!css) {
      css = cellCss(s === undefined ? undefined : styles[s], k)
      looks.set(key, css)
    }
    return { key, css }
  }
  return {
    ...base,
    styleOf(column, cell) {
      const { key, css } = lookOf(cell?.s, cell?.k)
      let cache = perColumn[column]
      if (!cache) {
        cache = new Map()
        perColumn[column] = cache
      }
      let style = cache.get(key)
      if (!style) {
        style = { ...css, left: base.lefts[column - 1], width: widths[column - 1] }
        cache.set(key, style)
      }
      return style
    },
  }
}

interface RowProps {
  row: number
  data: PreviewRow | undefined
  /** Offset in the body for a scrolled row; undefined for a frozen row (in the sticky head). */
  top: number | undefined
  height: number
  /** The scrolled columns in view (frozen ones are always drawn). */
  from: number
  to: number
  selectedColumn: number | undefined
  look: GridLook
}

/**
 * One row of the grid: the frozen cells, then the scrolled columns in view. Re-rendered only when its
 * data, place, columns in view or selection change; rows are recycled by the grid, so a row that scrolls
 * in updates the cells of one that scrolled out rather than building new ones.
 */
const GridRow = memo(function GridRow({ row, data, top, height, from, to, selectedColumn, look }: RowProps) {
  const { names, lefts, columns, frozenColumns, merges, compared, gridId } = look
  const byColumn: (PreviewCell | undefined)[] = []
  for (const cell of data?.cells ?? []) byColumn[cell.c] = cell
  const changes = look.changes.filter((c) => row >= c.top && row <= c.bottom)
  let first = Math.max(from, frozenColumns + 1)
  // A merged area that starts left of the columns in view is drawn from its start.
  for (const merge of merges.byRow.get(row) ?? [])
    if (merge.column > frozenColumns && merge.column < first && merge.column + merge.columns > first)
      first = merge.column
  let raised = false
  const cells: ReactElement[] = []
  const add = (column: number) => {
    const ref = `${names[column - 1]}${row}`
    const cell = byColumn[column]
    const key = cellKey(row, column)
    const covered = merges.covered.has(key)
    const merge = merges.starts.get(key)
    const changed = changes.some((c) => column >= c.left && column <= c.right)
    const differs = compared?.has(ref) ?? false
    const frozen = column <= frozenColumns
    let style = look.styleOf(column, cell)
    if (merge) {
      raised = true
      style = {
        ...style,
        width: (lefts[Math.min(column - 1 + merge.columns, columns)] ?? 0) - (lefts[column - 1] ?? 0),
        height: merge.rows * ROW_HEIGHT,
        zIndex: frozen ? 2 : 1,
      }
    }
    const selected = column === selectedColumn
    let className = frozen ? 'cell frozen' : 'cell'
    if (changed) className += ' changed'
    if (differs) className += ' compared'
    if (covered) className += ' covered'
    if (selected) className += ' selected'
    const described =
      changed && differs
        ? `${look.changedId} ${look.comparedId}`
        : changed
          ? look.changedId
          : differs
            ? look.comparedId
            : undefined
    cells.push(
      <div
        key={column}
        id={selected ? `${gridId}-${ref}` : undefined}
        role="gridcell"
        aria-colindex={column + 1}
        aria-selected={selected || undefined}
        aria-describedby={described}
        data-cell={ref}
        data-changed={changed || undefined}
        data-compared={differs || undefined}
        className={className}
        style={style}
        title={cell?.f ? `=${cell.f}` : undefined}
      >
        {covered ? '' : cell?.t}
      </div>,
    )
  }
  for (let column = 1; column <= frozenColumns; column++) add(column)
  for (let column = first; column <= to; column++) add(column)
  const style: CSSProperties & { '--row-height'?: string } =
    top === undefined
      ? { width: look.totalWidth }
      : { width: look.totalWidth, transform: `translateY(${top}px)` }
  if (height !== ROW_HEIGHT) style['--row-height'] = `${height}px`
  if (raised) style.zIndex = 1
  return (
    <div
      role="row"
      aria-rowindex={row + 1}
      className={top === undefined ? 'grid-row frozen-row' : 'grid-row'}
      style={style}
    >
      <div role="rowheader" className="row-header">
        {row}
      </div>
      {cells}
    </div>
  )
})

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

/**
 * One sheet as a read-only ARIA grid, virtualised both ways (only the rows and columns in view are in the
 * DOM, frozen ones always), with widths, heights, styles and merges as stored.
 */
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
  const names = useMemo(() => Array.from({ length: columns }, (_, i) => columnName(i)), [columns])
  const totalWidth = lefts[lefts.length - 1] ?? ROW_HEADER_WIDTH
  // A large sheet is described before it is read to its end: its row count is then an estimate and its
  // merges unknown; the answer for a page brings the exact count and the merges once the main has them.
  const [extent, setExtent] = useState<{ rows: number; merges: readonly string[] }>(() => ({
    rows: sheet.rows,
    merges: sheet.merges,
  }))
  const complete = sheet.rowsExact !== false
  const merges = useMemo(() => mergesOf(extent.merges), [extent.merges])
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

  // Declared first, so its scroll listener reads scrollLeft before the rows' listener re-renders the grid:
  // the other way round, that read forces a layout of the new rows inside the scroll event.
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns - frozenColumns,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => widths[frozenColumns + index] ?? 64,
    overscan: COLUMN_OVERSCAN,
    scrollMargin: lefts[frozenColumns] ?? ROW_HEADER_WIDTH,
  })
  const rowVirtualizer = useVirtualizer({
    count: bodyRows,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => heightOf(frozenRows + 1 + index),
    overscan: ROW_OVERSCAN,
    scrollMargin: HEADER_HEIGHT + frozenHeight,
  })
  const items = rowVirtualizer.getVirtualItems()
  const columnItems = columnVirtualizer.getVirtualItems()
  const firstRow = frozenRows + 1 + (items[0]?.index ?? 0)
  const lastRow = frozenRows + 1 + (items[items.length - 1]?.index ?? 0)
  const from = frozenColumns + 1 + (columnItems[0]?.index ?? 0)
  const to = frozenColumns + 1 + (columnItems[columnItems.length - 1]?.index ?? -1)

  const pages = useMemo(() => {
    const wanted = new Set<number>()
    if (frozenRows > 0) wanted.add(0)
    if (bodyRows > 0)
      for (
        let p = Math.floor((firstRow - 1) / SHEET_PAGE_ROWS);
        p <= Math.floor((lastRow - 1) / SHEET_PAGE_ROWS);
        p++
      )
        wanted.add(p)
    // The last page of an estimated sheet: its answer waits for the end of the sheet and tells its extent.
    if (!complete) wanted.add(Math.floor(Math.max(0, sheet.rows - 1) / SHEET_PAGE_ROWS))
    return [...wanted]
  }, [firstRow, lastRow, frozenRows, bodyRows, complete, sheet.rows])
  const wantedKey = pages.join(' ')
  const [settledKey, setSettledKey] = useState(wantedKey)
  useEffect(() => {
    if (settledKey === wantedKey) return
    const timer = setTimeout(() => setSettledKey(wantedKey), SETTLE_MS)
    return () => clearTimeout(timer)
  }, [wantedKey, settledKey])
  const settled = useMemo(() => new Set(settledKey.split(' ').map(Number)), [settledKey])

  const results = useSheetRowPages(description.path, description.version, sheet.name, pages, settled)
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
    if (heightsChanged) rowVirtualizer.measure()
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
    if (r > frozenRows) rowVirtualizer.scrollToIndex(r - frozenRows - 1, { align: 'auto' })
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
      // Column A may be frozen (always in view): Home also brings the scrolled columns back to their start.
      if (scrollRef.current) scrollRef.current.scrollLeft = 0
    } else if (e.key === 'End') {
      e.preventDefault()
      select(e.ctrlKey ? rowCount : selected.row, columns)
    }
  }

  // One listener for every cell: the cell's own reference says where it is.
  const onMouseDown = (e: MouseEvent<HTMLDivElement>) => {
    const ref = (e.target as HTMLElement).closest<HTMLElement>('[data-cell]')?.dataset.cell
    const at = ref ? parseCell(ref) : undefined
    if (at) setSelected({ row: at.row, column: at.column + 1 })
  }

  const look = useMemo(
    () =>
      gridLook(
        {
          names,
          lefts,
          totalWidth,
          columns,
          frozenColumns,
          changes,
          compared,
          merges,
          gridId,
          changedId,
          comparedId,
        },
        widths,
        description.styles,
      ),
    [
      names,
      lefts,
      totalWidth,
      columns,
      frozenColumns,
      changes,
      compared,
      merges,
      gridId,
      changedId,
      comparedId,
      widths,
      description.styles,
    ],
  )

  // Rows in view are keyed by their slot in a ring at least as long as the rows drawn: a row that stays
  // in view keeps its element, and one that scrolls in takes over the element of one that scrolled out.
  const ring = useRef(1)
  ring.current = Math.max(ring.current, items.length)
  const renderRow = (row: number, key: number, top: number | undefined) => (
    <GridRow
      key={key}
      row={row}
      data={rows.get(row)}
      top={top}
      height={heightOf(row)}
      from={from}
      to={to}
      selectedColumn={row === selected.row ? selected.column : undefined}
      look={look}
    />
  )
  const headerColumns: number[] = []
  for (let c = 1; c <= frozenColumns; c++) headerColumns.push(c)
  for (let c = from; c <= to; c++) headerColumns.push(c)

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
        onMouseDown={onMouseDown}
        data-testid="sheet-grid"
      >
        <div role="rowgroup" className="grid-head" style={{ width: totalWidth }}>
          <div role="row" aria-rowindex={1} className="grid-row header-row" style={{ width: totalWidth }}>
            <div role="columnheader" className="corner" aria-label="Row numbers" />
            {headerColumns.map((column) => (
              <div
                key={column}
                role="columnheader"
                aria-colindex={column + 1}
                className={column <= frozenColumns ? 'column-header frozen' : 'column-header'}
                style={look.styleOf(column, undefined)}
              >
                {names[column - 1]}
              </div>
            ))}
          </div>
          {Array.from({ length: frozenRows }, (_, i) => renderRow(i + 1, i + 1, undefined))}
        </div>
        <div
          role="rowgroup"
          className="grid-body"
          style={{ height: rowVirtualizer.getTotalSize(), width: totalWidth }}
        >
          {items.map((item) =>
            renderRow(
              frozenRows + 1 + item.index,
              item.index % ring.current,
              item.start - rowVirtualizer.options.scrollMargin,
            ),
          )}
        </div>
      </div>
    </>
  )
}
