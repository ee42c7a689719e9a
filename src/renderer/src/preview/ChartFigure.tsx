/** biome-ignore-all lint/suspicious/noArrayIndexKey: a chart's bars, points, slices and table rows are positional (categories and series may repeat names) */
import { type ReactElement, useId } from 'react'
import type { PreviewChart } from '../../../shared/ipc'

// A workbook's chart drawn from the values cached in its XML: React-built SVG (text is escaped, no script,
// nothing fetched), named for screen readers, with the numbers as a table beneath it.

const WIDTH = 400
const HEIGHT = 250
const PAD = { left: 44, right: 12, top: 12, bottom: 30 }
/** Series colours when the chart sets none: distinct in light and dark themes and for common colour blindness. */
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f']

const colorOf = (series: PreviewChart['series'][number], i: number) =>
  series.color ?? PALETTE[i % PALETTE.length]

function niceTicks(min: number, max: number, count = 5): number[] {
  if (min === max) return [min]
  const span = max - min
  const step0 = span / count
  const magnitude = 10 ** Math.floor(Math.log10(step0))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => span / s <= count) ?? step0
  const ticks: number[] = []
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(12)))
  return ticks
}

const label = (n: number) =>
  Math.abs(n) >= 1e6
    ? `${Number((n / 1e6).toPrecision(3))}M`
    : Math.abs(n) >= 1e4
      ? `${Number((n / 1e3).toPrecision(3))}k`
      : String(Number(n.toPrecision(4)))

const short = (text: string, max = 12) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

function extentOf(chart: PreviewChart, secondary = false): { min: number; max: number } {
  chart = { ...chart, series: chart.series.filter((s) => Boolean(s.secondary) === secondary) }
  const stacked = chart.grouping === 'stacked' || chart.grouping === 'percentStacked'
  let min = 0
  let max = 0
  if (stacked && chart.grouping === 'percentStacked') return { min: 0, max: 100 }
  if (stacked)
    chart.categories.forEach((_, i) => {
      let up = 0
      let down = 0
      for (const s of chart.series) {
        const v = s.values[i] ?? 0
        if (v >= 0) up += v
        else down += v
      }
      max = Math.max(max, up)
      min = Math.min(min, down)
    })
  else
    for (const s of chart.series)
      for (const v of s.values)
        if (v !== null) {
          max = Math.max(max, v)
          min = Math.min(min, v)
        }
  if (min === max) max = min + 1
  return { min, max }
}

function Axes({ ticks, y, horizontal }: { ticks: number[]; y: (v: number) => number; horizontal: boolean }) {
  return (
    <g className="chart-axis" fontSize="10">
      {ticks.map((t) =>
        horizontal ? (
          <g key={t}>
            <line x1={y(t)} x2={y(t)} y1={PAD.top} y2={HEIGHT - PAD.bottom} className="chart-grid" />
            <text x={y(t)} y={HEIGHT - PAD.bottom + 14} textAnchor="middle">
              {label(t)}
            </text>
          </g>
        ) : (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(t) + 3} textAnchor="end">
              {label(t)}
            </text>
          </g>
        ),
      )}
    </g>
  )
}

function CartesianPlot({ chart }: { chart: PreviewChart }) {
  const { min, max } = extentOf(chart)
  const ticks = niceTicks(min, max)
  const lo = Math.min(min, ticks[0] ?? min)
  const hi = Math.max(max, ticks[ticks.length - 1] ?? max)
  const horizontal = chart.type === 'bar'
  const plotW = WIDTH - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const value = (v: number) =>
    horizontal ? PAD.left + ((v - lo) / (hi - lo)) * plotW : PAD.top + plotH - ((v - lo) / (hi - lo)) * plotH
  const n = Math.max(1, chart.categories.length)
  const band = (horizontal ? plotH : plotW) / n
  const categoryAt = (i: number) => (horizontal ? PAD.top : PAD.left) + band * (i + 0.5)
  const percent = chart.grouping === 'percentStacked'
  const stacked = chart.grouping === 'stacked' || percent
  const totals = chart.categories.map((_, i) =>
    chart.series.reduce((sum, s) => sum + Math.abs(s.values[i] ?? 0), 0),
  )
  const scaled = (v: number, i: number) => (percent ? (v / (totals[i] || 1)) * 100 : v)
  const shapes: ReactElement[] = []
  // A combo's series keep their own kind; those on the secondary axis get their own scale.
  const isBar = (s: PreviewChart['series'][number]) => ['bar', 'column'].includes(s.type ?? chart.type)
  const bars = chart.series.flatMap((s, k) => (isBar(s) ? [{ s, k }] : []))
  const lines = chart.series.flatMap((s, k) => (isBar(s) ? [] : [{ s, k }]))
  const second = chart.series.some((s) => s.secondary) ? extentOf(chart, true) : undefined
  const value2 = (v: number) =>
    second ? PAD.top + plotH - ((v - second.min) / (second.max - second.min)) * plotH : value(v)
  const scaleOf = (s: PreviewChart['series'][number]) => (s.secondary ? value2 : value)

  if (bars.length > 0) {
    const inner = band * 0.7
    const each = stacked ? inner : inner / Math.max(1, bars.length)
    chart.categories.forEach((_, i) => {
      let up = 0
      let down = 0
      bars.forEach(({ s, k: index }, k) => {
        const value = scaleOf(s)
        const raw = s.values[i]
        if (raw === null || raw === undefined) return
        const v = scaled(raw, i)
        const base = stacked ? (v >= 0 ? up : down) : 0
        if (stacked) {
          if (v >= 0) up += v
          else down += v
        }
        const a = value(base)
        const b = value(base + v)
        const offset = categoryAt(i) - inner / 2 + (stacked ? 0 : each * k)
        shapes.push(
          horizontal ? (
            <rect
              key={`${k}-${i}`}
              x={Math.min(a, b)}
              y={offset}
              width={Math.abs(b - a)}
              height={each}
              fill={colorOf(s, index)}
            />
          ) : (
            <rect
              key={`${k}-${i}`}
              x={offset}
              y={Math.min(a, b)}
              width={each}
              height={Math.abs(b - a)}
              fill={colorOf(s, index)}
            />
          ),
        )
      })
    })
  }
  {
    const running = chart.categories.map(() => 0)
    lines.forEach(({ s, k }) => {
      const value = scaleOf(s)
      const points: [number, number][] = []
      const bases: [number, number][] = []
      s.values.forEach((raw, i) => {
        if (raw === null) return
        const v = scaled(raw, i)
        const base = stacked ? (running[i] ?? 0) : 0
        if (stacked) running[i] = base + v
        points.push([categoryAt(i), value(base + v)])
        bases.push([categoryAt(i), value(base)])
      })
      const path = points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('')
      if ((s.type ?? chart.type) === 'area' && points.length) {
        const back = [...bases]
          .reverse()
          .map(([x, y]) => `L${x.toFixed(1)},${y.toFixed(1)}`)
          .join('')
        shapes.push(
          <path
            key={`a${k}`}
            d={`${path}${back}Z`}
            fill={colorOf(s, k)}
            fillOpacity={0.45}
            stroke={colorOf(s, k)}
          />,
        )
      } else {
        shapes.push(<path key={`l${k}`} d={path} fill="none" stroke={colorOf(s, k)} strokeWidth={2} />)
        for (const [i, [x, y]] of points.entries())
          shapes.push(<circle key={`p${k}-${i}`} cx={x} cy={y} r={2.5} fill={colorOf(s, k)} />)
      }
    })
  }
  const every = Math.max(1, Math.ceil(n / (horizontal ? 14 : 10)))
  return (
    <>
      <Axes ticks={ticks} y={value} horizontal={horizontal} />
      <g fontSize="10" className="chart-axis">
        {chart.categories.map((c, i) =>
          i % every ? null : horizontal ? (
            <text key={i} x={PAD.left - 6} y={categoryAt(i) + 3} textAnchor="end">
              {short(c, 8)}
            </text>
          ) : (
            <text key={i} x={categoryAt(i)} y={HEIGHT - PAD.bottom + 14} textAnchor="middle">
              {short(c)}
            </text>
          ),
        )}
      </g>
      <line
        x1={value(0)}
        x2={value(0)}
        y1={PAD.top}
        y2={HEIGHT - PAD.bottom}
        className="chart-zero"
        visibility={horizontal ? 'visible' : 'hidden'}
      />
      <line
        x1={PAD.left}
        x2={WIDTH - PAD.right}
        y1={value(0)}
        y2={value(0)}
        className="chart-zero"
        visibility={horizontal ? 'hidden' : 'visible'}
      />
      {shapes}
    </>
  )
}

function ScatterPlot({ chart }: { chart: PreviewChart }) {
  const xs = chart.series.flatMap((s) => (s.x ?? []).filter((v): v is number => v !== null))
  const ys = chart.series.flatMap((s) => s.values.filter((v): v is number => v !== null))
  const xt = niceTicks(Math.min(...xs, 0), Math.max(...xs, 1))
  const yt = niceTicks(Math.min(...ys, 0), Math.max(...ys, 1))
  const [x0, x1] = [Math.min(xt[0] ?? 0, ...xs), Math.max(xt[xt.length - 1] ?? 1, ...xs)]
  const [y0, y1] = [Math.min(yt[0] ?? 0, ...ys), Math.max(yt[yt.length - 1] ?? 1, ...ys)]
  const x = (v: number) => PAD.left + ((v - x0) / (x1 - x0 || 1)) * (WIDTH - PAD.left - PAD.right)
  const y = (v: number) => HEIGHT - PAD.bottom - ((v - y0) / (y1 - y0 || 1)) * (HEIGHT - PAD.top - PAD.bottom)
  return (
    <>
      <Axes ticks={yt} y={y} horizontal={false} />
      <Axes ticks={xt} y={x} horizontal />
      {chart.series.map((s, k) =>
        s.values.map((v, i) => {
          const at = s.x?.[i]
          return v === null || at === null || at === undefined ? null : (
            <circle key={`${k}-${i}`} cx={x(at)} cy={y(v)} r={3.5} fill={colorOf(s, k)} />
          )
        }),
      )}
    </>
  )
}

function PiePlot({ chart }: { chart: PreviewChart }) {
  const series = chart.series[0]
  const values = (series?.values ?? []).map((v) => Math.max(0, v ?? 0))
  const total = values.reduce((a, b) => a + b, 0) || 1
  const cx = WIDTH / 2 - 70
  const cy = HEIGHT / 2
  const r = HEIGHT / 2 - 20
  const hole = chart.type === 'doughnut' ? r * 0.5 : 0
  let angle = -Math.PI / 2
  return (
    <>
      {values.map((v, i) => {
        const sweep = (v / total) * Math.PI * 2
        const a0 = angle
        angle += sweep
        const point = (radius: number, a: number) =>
          `${cx + radius * Math.cos(a)},${cy + radius * Math.sin(a)}`
        const large = sweep > Math.PI ? 1 : 0
        const d =
          sweep >= Math.PI * 2 - 1e-9
            ? `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`
            : hole
              ? `M${point(r, a0)}A${r},${r} 0 ${large} 1 ${point(r, angle)}L${point(hole, angle)}A${hole},${hole} 0 ${large} 0 ${point(hole, a0)}Z`
              : `M${cx},${cy}L${point(r, a0)}A${r},${r} 0 ${large} 1 ${point(r, angle)}Z`
        return <path key={i} d={d} fill={PALETTE[i % PALETTE.length]} stroke="var(--bg)" strokeWidth={1} />
      })}
      <g fontSize="11" className="chart-axis">
        {chart.categories.slice(0, 12).map((c, i) => (
          <g key={i} transform={`translate(${WIDTH - 150},${24 + i * 18})`}>
            <rect width={10} height={10} fill={PALETTE[i % PALETTE.length]} />
            <text x={16} y={9}>
              {short(c, 14)} {Math.round(((values[i] ?? 0) / total) * 100)}%
            </text>
          </g>
        ))}
      </g>
    </>
  )
}

/** One chart: the drawing (an image named by its title and kind), its legend and its data as a table. */
export function ChartFigure({
  title,
  chart,
  anchor,
}: {
  title: string
  chart: PreviewChart
  anchor: string
}) {
  const id = useId()
  const kind = chart.type === 'column' ? 'column' : chart.type
  const name = `${title}: ${kind} chart of ${chart.series.map((s) => s.name).join(', ')} at ${anchor}`
  const round = chart.type === 'pie' || chart.type === 'doughnut'
  const columns =
    chart.type === 'scatter'
      ? ['x', ...chart.series.map((s) => s.name)]
      : ['', ...chart.series.map((s) => s.name)]
  return (
    <figure className="sheet-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>
        <strong>{title}</strong>{' '}
        <span className="muted">
          ({kind} chart at {anchor})
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={name} className="chart-svg">
        {round ? (
          <PiePlot chart={chart} />
        ) : chart.type === 'scatter' ? (
          <ScatterPlot chart={chart} />
        ) : (
          <CartesianPlot chart={chart} />
        )}
      </svg>
      {!round && chart.series.length > 0 && (
        <ul className="chart-legend" aria-hidden="true">
          {chart.series.map((s, k) => (
            <li key={k}>
              <span className="chart-swatch" style={{ background: colorOf(s, k) }} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <details className="chart-data">
        <summary>Data of “{title}”</summary>
        <table>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} scope="col">
                  {c || 'Category'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chart.categories.slice(0, 200).map((c, i) => (
              <tr key={i}>
                <th scope="row">{chart.type === 'scatter' ? String(chart.series[0]?.x?.[i] ?? c) : c}</th>
                {chart.series.map((s, k) => (
                  <td key={k}>{s.values[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
