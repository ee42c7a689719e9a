import { type KeyboardEvent, useMemo, useRef, useState } from 'react'
import type { PreviewDescription } from '../../../shared/ipc'
import { ChartFigure } from './ChartFigure'
import type { CellChange } from './receiptChanges'
import { MAX_GRID_COLUMNS, SheetGrid } from './SheetGrid'

type SheetDescription = Extract<PreviewDescription, { kind: 'sheet' }>

function changeLabel(change: CellChange, manySheets: boolean): string {
  return `${manySheets ? `${change.sheet}!` : ''}${change.range} ${change.what}`
}

/** A workbook: sheet tabs, placeholders for charts and pivots, the formula bar, the grid and the run's changes. */
export function SheetView({
  description,
  changes,
  compared,
}: {
  description: SheetDescription
  changes: readonly CellChange[]
  /** Changed cells per sheet against the previous version. */
  compared: ReadonlyMap<string, ReadonlySet<string>> | undefined
}) {
  const visible = description.sheets.filter((s) => !s.hidden)
  const firstChanged = changes[0] ? visible.findIndex((s) => s.name === changes[0]?.sheet) : -1
  const [active, setActive] = useState(Math.max(0, firstChanged))
  const [jump, setJump] = useState<{ row: number; column: number; seq: number } | undefined>(() =>
    changes[0] ? { row: changes[0].top, column: changes[0].left, seq: 0 } : undefined,
  )
  const [selection, setSelection] = useState<{ ref: string; text: string; formula?: string | undefined }>()
  const [current, setCurrent] = useState(-1)
  const tabs = useRef<(HTMLButtonElement | null)[]>([])
  const sheet = visible[Math.min(active, visible.length - 1)]
  const manySheets = new Set(changes.map((c) => c.sheet)).size > 1

  const goTo = (index: number) => {
    const change = changes[index]
    if (!change) return
    const tab = visible.findIndex((s) => s.name === change.sheet)
    if (tab >= 0) setActive(tab)
    setCurrent(index)
    setJump((j) => ({ row: change.top, column: change.left, seq: (j?.seq ?? 0) + 1 }))
  }

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = visible.length - 1
    const next =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : undefined
    if (next === undefined) return
    e.preventDefault()
    setActive(next)
    tabs.current[next]?.focus()
  }

  // One array per sheet, so the grid's memoised rows keep it from render to render.
  const sheetChanges = useMemo(() => changes.filter((c) => c.sheet === sheet?.name), [changes, sheet?.name])
  if (!sheet) return <p className="muted">The workbook has no visible sheet.</p>
  return (
    <div className="sheet-view">
      {changes.length > 0 && (
        <nav className="change-list" aria-label="Changes by the run">
          <h3>
            {changes.length} change{changes.length === 1 ? '' : 's'} by the run
          </h3>
          <ol>
            {changes.map((change, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a run may change the same range twice; the list never reorders
              <li key={`${change.sheet}!${change.range}-${i}`}>
                <button
                  type="button"
                  className={i === current ? 'change current' : 'change'}
                  aria-current={i === current ? 'true' : undefined}
                  onClick={() => goTo(i)}
                >
                  {changeLabel(change, manySheets)}
                </button>
              </li>
            ))}
          </ol>
          <div className="change-steps">
            <button
              type="button"
              className="button secondary small"
              onClick={() => goTo(current <= 0 ? changes.length - 1 : current - 1)}
            >
              Previous change
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => goTo(current >= changes.length - 1 ? 0 : current + 1)}
            >
              Next change
            </button>
          </div>
        </nav>
      )}
      <div className="sheet-tabs" role="tablist" aria-label="Sheets">
        {visible.map((s, i) => (
          <button
            key={s.name}
            ref={(el) => {
              tabs.current[i] = el
            }}
            type="button"
            role="tab"
            id={`sheet-tab-${i}`}
            aria-selected={i === active}
            aria-controls="sheet-panel"
            tabIndex={i === active ? 0 : -1}
            onClick={() => setActive(i)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {s.name}
            {changes.some((c) => c.sheet === s.name) && (
              <span className="tab-dot">
                <span className="visually-hidden"> (changed)</span>
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="sheet-panel" id="sheet-panel" role="tabpanel" aria-labelledby={`sheet-tab-${active}`}>
        {sheet.placeholders.some((p) => p.chart) && (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the strip scrolls sideways; keyboard users scroll it too
          <section className="sheet-charts" aria-label="Charts on this sheet" tabIndex={0}>
            {sheet.placeholders.map((p, i) =>
              p.chart ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: charts may share titles
                <ChartFigure key={i} title={p.title} chart={p.chart} anchor={p.anchor} />
              ) : null,
            )}
          </section>
        )}
        {sheet.placeholders.some((p) => !p.chart) && (
          <ul className="sheet-objects" aria-label="Objects on this sheet">
            {sheet.placeholders
              .filter((p) => !p.chart)
              .map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: objects may share titles
                <li key={i}>
                  {p.kind === 'chart' ? 'Chart' : p.kind === 'pivot' ? 'Pivot table' : 'Picture'} “{p.title}”
                  at {p.anchor}
                </li>
              ))}
          </ul>
        )}
        {sheet.columns > MAX_GRID_COLUMNS && (
          <p className="muted small-note">
            The sheet has {sheet.columns.toLocaleString()} columns; the preview shows the first{' '}
            {MAX_GRID_COLUMNS}.
          </p>
        )}
        <div className="formula-bar" aria-live="polite">
          <span className="formula-ref">{selection?.ref ?? 'A1'}</span>
          <output className="formula-text" aria-label="Cell content">
            {selection?.formula ? `=${selection.formula}` : (selection?.text ?? '')}
          </output>
        </div>
        <SheetGrid
          key={`${description.version}-${sheet.name}`}
          description={description}
          sheet={sheet}
          changes={sheetChanges}
          compared={compared?.get(sheet.name)}
          jump={jump}
          onSelect={setSelection}
        />
        <p className="muted small-note">
          {sheet.rowsExact === false ? 'About ' : ''}
          {sheet.rows.toLocaleString()} rows × {sheet.columns.toLocaleString()} columns
          {sheet.frozen.rows || sheet.frozen.columns
            ? ` · frozen ${sheet.frozen.rows} rows, ${sheet.frozen.columns} columns`
            : ''}
          {sheetChanges.length
            ? ` · ${sheetChanges.length} changed area${sheetChanges.length === 1 ? '' : 's'}`
            : ''}
        </p>
      </div>
    </div>
  )
}
