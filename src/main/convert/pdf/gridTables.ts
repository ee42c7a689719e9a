import { buildLines } from './lines'
import type { Rule } from './rules'
import type { TextRun } from './types'

export interface GridTable {
  top: number
  bottom: number
  left: number
  right: number
  rows: string[][]
}

const SNAP = 2
/** Slack for the index bounds, so float rounding never leaves out a rule the exact tests would take. */
const EPSILON = 1e-6

/** The first index of `sorted` (ascending by `at`) whose `at` is at least `value`. */
function lowerBound(sorted: { at: number }[], value: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >> 1
    if ((sorted[mid] as { at: number }).at < value) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * Joins collinear, overlapping or touching rules into single long ones. Merged rules keep the `at` of
 * their first piece and are made in ascending `at`, so only those from `at - SNAP` on can take a rule.
 */
function mergeRules(rules: Rule[]): Rule[] {
  const sorted = [...rules].sort((a, b) => a.at - b.at || a.from - b.from)
  const merged: Rule[] = []
  for (const rule of sorted) {
    let same: Rule | undefined
    for (let i = lowerBound(merged, rule.at - SNAP - EPSILON); i < merged.length && !same; i++) {
      const other = merged[i] as Rule
      if (
        other.orientation === rule.orientation &&
        Math.abs(other.at - rule.at) <= SNAP &&
        rule.from <= other.to + SNAP &&
        rule.to >= other.from - SNAP
      )
        same = other
    }
    if (same) {
      same.from = Math.min(same.from, rule.from)
      same.to = Math.max(same.to, rule.to)
    } else merged.push({ ...rule })
  }
  return merged
}

function crosses(h: Rule, v: Rule): boolean {
  return v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP
}

/** Distinct positions, nearby ones (within SNAP) counted once. */
function positions(values: number[]): number[] {
  const out: number[] = []
  for (const value of [...values].sort((a, b) => a - b)) {
    const last = out[out.length - 1]
    if (last === undefined || value - last > SNAP) out.push(value)
  }
  return out
}

function components(horizontal: Rule[], vertical: Rule[]): { h: Rule[]; v: Rule[] }[] {
  const all = [...horizontal, ...vertical]
  const parent = all.map((_, index) => index)
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number
      i = parent[i] as number
    }
    return i
  }
  // Only verticals whose position lies along a horizontal can cross it; the partition does not depend
  // on the order of the unions.
  const byPosition = vertical.map((rule, j) => ({ at: rule.at, j })).sort((a, b) => a.at - b.at)
  for (const [i, h] of horizontal.entries()) {
    for (let k = lowerBound(byPosition, h.from - SNAP - EPSILON); k < byPosition.length; k++) {
      const { at, j } = byPosition[k] as { at: number; j: number }
      if (at > h.to + SNAP + EPSILON) break
      if (crosses(h, vertical[j] as Rule)) parent[find(i)] = find(horizontal.length + j)
    }
  }
  const groups = new Map<number, { h: Rule[]; v: Rule[] }>()
  for (const [index, rule] of all.entries()) {
    const root = find(index)
    const group = groups.get(root) ?? { h: [], v: [] }
    ;(rule.orientation === 'h' ? group.h : group.v).push(rule)
    groups.set(root, group)
  }
  return [...groups.values()]
}

function slot(edges: number[], value: number): number {
  for (let i = 0; i < edges.length - 1; i++)
    if (value >= (edges[i] as number) && value < (edges[i + 1] as number)) return i
  return -1
}

/**
 * A run goes on across gaps narrower than 0.6 em (textRuns.ts), so with tight cell padding one can
 * straddle a cell border; such a run is split into words placed proportionally along its width.
 */
function splitAcross(run: TextRun, columnEdges: number[]): TextRun[] {
  const start = slot(columnEdges, run.x + 0.5)
  const end = slot(columnEdges, run.x + run.width - 0.5)
  if (start === end || !/\s/.test(run.text.trim())) return [run]
  const perChar = run.width / Math.max(1, run.text.length)
  const parts: TextRun[] = []
  for (const match of run.text.matchAll(/\S+/g)) {
    const offset = match.index ?? 0
    parts.push({ ...run, text: match[0], x: run.x + offset * perChar, width: match[0].length * perChar })
  }
  return parts
}

/** A grid whose cells hold whole paragraphs is page furniture (a frame, a divider), not a table. */
function tooCoarse(cells: Map<string, TextRun[]>): boolean {
  const lineCounts = [...cells.values()].map((runs) => buildLines(runs).length)
  const mean = lineCounts.reduce((sum, count) => sum + count, 0) / Math.max(1, lineCounts.length)
  return mean > 2.5 || Math.max(0, ...lineCounts) > 6
}

/**
 * Bordered tables: grids of crossing ruling lines. Every text run inside a grid goes to the cell its
 * centre falls in; the runs used are returned so the page flow skips them.
 */
export function findGridTables(rules: Rule[], runs: TextRun[]): { tables: GridTable[]; used: Set<TextRun> } {
  const merged = mergeRules(rules)
  const horizontal = merged.filter((rule) => rule.orientation === 'h')
  const vertical = merged.filter((rule) => rule.orientation === 'v')
  const tables: GridTable[] = []
  const used = new Set<TextRun>()
  for (const group of components(horizontal, vertical)) {
    const rowEdges = positions(group.h.map((rule) => rule.at))
    const columnEdges = positions(group.v.map((rule) => rule.at))
    if (rowEdges.length < 2 || columnEdges.length < 3) continue
    const cells = new Map<string, TextRun[]>()
    const inside: TextRun[] = []
    for (const run of runs) {
      if (used.has(run) || !run.text.trim()) continue
      const row = slot(rowEdges, run.y - run.size * 0.3)
      if (row < 0 || slot(columnEdges, run.x + run.width / 2) < 0) continue
      for (const part of splitAcross(run, columnEdges)) {
        const column = Math.max(0, slot(columnEdges, part.x + part.width / 2))
        const key = `${row}:${column}`
        const cell = cells.get(key)
        if (cell) cell.push(part)
        else cells.set(key, [part])
      }
      inside.push(run)
    }
    if (cells.size < 2 || tooCoarse(cells)) continue
    const rows = Array.from({ length: rowEdges.length - 1 }, (_, row) =>
      Array.from({ length: columnEdges.length - 1 }, (_, column) =>
        buildLines(cells.get(`${row}:${column}`) ?? [])
          .map((line) => line.text)
          .join(' '),
      ),
    )
    const keptRows = rows.filter((row) => row.some(Boolean))
    const keptColumns = Array.from({ length: columnEdges.length - 1 }, (_, column) =>
      keptRows.some((row) => row[column]),
    )
    const compact = keptRows.map((row) => row.filter((_, column) => keptColumns[column]))
    if ((compact[0]?.length ?? 0) < 2 || compact.length < 1) continue
    for (const run of inside) used.add(run)
    tables.push({
      top: rowEdges[0] as number,
      bottom: rowEdges[rowEdges.length - 1] as number,
      left: columnEdges[0] as number,
      right: columnEdges[columnEdges.length - 1] as number,
      rows: compact,
    })
  }
  return { tables, used }
}
