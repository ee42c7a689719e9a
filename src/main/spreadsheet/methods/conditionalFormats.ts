import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { method } from '../../tools'
import { type Area, areaName, cellName, columnLetters } from '../cells/address'
import { invalidInput } from '../errors'
import { FormulaChecker } from '../formulas/checkFormula'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { SETTINGS_RECEIPT_DOC, SettingsReceipt } from '../workbook/receipt'
import { argb } from './formatting'
import { AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { openSheet } from './sheetTarget'

/** Icon sets exceljs writes as plain rules (the others need an extension it drops). */
export const ICON_SETS = [
  '3Arrows',
  '3ArrowsGray',
  '3Flags',
  '3TrafficLights1',
  '3TrafficLights2',
  '3Signs',
  '3Symbols',
  '3Symbols2',
  '4Arrows',
  '4ArrowsGray',
  '4RedToBlack',
  '4Rating',
  '4TrafficLights',
  '5Arrows',
  '5ArrowsGray',
  '5Rating',
  '5Quarters',
] as const

export const MORE_RULES = [
  'formula',
  'top_bottom',
  'average',
  'duplicates',
  'unique',
  'text_contains',
  'data_bar',
  'icon_set',
] as const
export type MoreRule = (typeof MORE_RULES)[number]

export interface MoreRuleInput {
  rule: MoreRule
  formula?: string
  rank?: number
  percent?: boolean
  bottom?: boolean
  below?: boolean
  text?: string
  color?: string
  icon_set?: (typeof ICON_SETS)[number]
  fill_color?: string
  font_color?: string
}

/** The dxf style of a highlighting rule: the fill (default light red) and font colour asked for. */
export function highlightStyle(fillColor: string | undefined, fontColor: string | undefined) {
  const style: Record<string, unknown> = {}
  const fill = fillColor ?? (fontColor ? undefined : '#FFC7CE')
  if (fill)
    style.fill = {
      type: 'pattern',
      pattern: 'solid',
      bgColor: { argb: argb(fill) },
      fgColor: { argb: argb(fill) },
    }
  if (fontColor) style.font = { color: { argb: argb(fontColor) } }
  const label = `${fill ? ` with fill ${fill}` : ''}${fontColor ? ` font ${fontColor}` : ''}`
  return { style, label }
}

const absolute = (area: Area) =>
  `$${columnLetters(area.left)}$${area.top}:$${columnLetters(area.right)}$${area.bottom}`

/** Adds one of the rules beyond cell_value and color_scale; returns what the settings receipt says. */
export function addMoreRule(open: OpenWorkbook, ws: Worksheet, area: Area, input: MoreRuleInput): string {
  const ref = areaName(area)
  const topLeft = cellName(area.top, area.left)
  const { style, label } = highlightStyle(input.fill_color, input.font_color)
  let rule: Record<string, unknown>
  let said: string
  switch (input.rule) {
    case 'formula': {
      if (!input.formula)
        throw invalidInput(`rule formula needs formula, true for the top-left cell ${topLeft}, e.g. $C2>100`)
      const body = input.formula.trim().replace(/^=/, '')
      new FormulaChecker(open.sheetNames()).check(body, { sheet: ws.name, label: 'formula' }, 'formula')
      rule = { type: 'expression', formulae: [body], style }
      said = `highlight where =${body}`
      break
    }
    case 'top_bottom': {
      const rank = input.rank ?? 10
      if (!Number.isInteger(rank) || rank < 1 || rank > 1000 || (input.percent && rank > 100))
        throw invalidInput('rank is a whole number from 1 to 1000 (to 100 with percent)')
      rule = { type: 'top10', rank, percent: Boolean(input.percent), bottom: Boolean(input.bottom), style }
      said = `highlight the ${input.bottom ? 'bottom' : 'top'} ${rank}${input.percent ? ' %' : ''}`
      break
    }
    case 'average':
      rule = { type: 'aboveAverage', aboveAverage: !input.below, style }
      said = `highlight values ${input.below ? 'below' : 'above'} the average`
      break
    case 'duplicates':
    case 'unique': {
      // exceljs writes no duplicateValues rule: the same test as a formula over the range.
      const test = input.rule === 'duplicates' ? '>1' : '=1'
      rule = {
        type: 'expression',
        formulae: [`AND(${topLeft}<>"",COUNTIF(${absolute(area)},${topLeft})${test})`],
        style,
      }
      said = `highlight ${input.rule === 'duplicates' ? 'duplicate' : 'unique'} values`
      break
    }
    case 'text_contains': {
      if (!input.text) throw invalidInput('rule text_contains needs text')
      const quoted = input.text.replace(/"/g, '""')
      rule = {
        type: 'containsText',
        operator: 'containsText',
        text: input.text,
        formulae: [`NOT(ISERROR(SEARCH("${quoted}",${topLeft})))`],
        style,
      }
      said = `highlight cells containing "${input.text}"`
      break
    }
    case 'data_bar': {
      const color = input.color ?? '#638EC6'
      rule = { type: 'dataBar', cfvo: [{ type: 'min' }, { type: 'max' }], color: { argb: argb(color) } }
      return finish(open, ws, ref, rule, `data bars in ${color}`)
    }
    case 'icon_set': {
      const set = input.icon_set ?? '3TrafficLights1'
      const n = Number(set[0])
      const cfvo = Array.from({ length: n }, (_, i) => ({
        type: 'percent',
        value: Math.round((i * 100) / n),
      }))
      rule = { type: 'iconSet', iconSet: set, cfvo }
      return finish(open, ws, ref, rule, `icon set ${set}`)
    }
  }
  return finish(open, ws, ref, rule, `${said}${label}`)
}

function finish(
  open: OpenWorkbook,
  ws: Worksheet,
  ref: string,
  rule: Record<string, unknown>,
  said: string,
): string {
  ws.addConditionalFormatting({ ref, rules: [rule as never] })
  open.changed(ws)
  return said
}

interface StoredRule {
  type?: string
  operator?: string
  formulae?: unknown[]
  rank?: number
  percent?: boolean
  bottom?: boolean
  aboveAverage?: boolean
  iconSet?: string
  text?: string
}

interface StoredFormatting {
  ref: string
  rules: StoredRule[]
}

function formattings(ws: Worksheet): StoredFormatting[] {
  const list = (ws as unknown as { conditionalFormattings?: StoredFormatting[] }).conditionalFormattings
  return list ?? []
}

function describeRule(rule: StoredRule): string {
  const formulae = (rule.formulae ?? []).map(String)
  switch (rule.type) {
    case 'cellIs':
      return `cell value ${rule.operator ?? ''} ${formulae.join(' and ')}`.trim()
    case 'expression':
      return `formula =${formulae[0] ?? ''}`
    case 'top10':
      return `${rule.bottom ? 'bottom' : 'top'} ${rule.rank ?? 10}${rule.percent ? ' %' : ''}`
    case 'aboveAverage':
      return `${rule.aboveAverage === false ? 'below' : 'above'} average`
    case 'containsText': {
      // exceljs keeps the text only in the rule's formula once read back.
      const searched = /SEARCH\("((?:[^"]|"")*)"/.exec(formulae[0] ?? '')?.[1]?.replace(/""/g, '"')
      const text = rule.text ?? searched
      return `text contains ${text !== undefined ? `"${text}"` : (formulae[0] ?? '')}`
    }
    case 'iconSet':
      return `icon set ${rule.iconSet ?? ''}`
    default:
      return rule.type ?? 'unknown'
  }
}

const RuleInfo = z.object({
  index: z.number().int().describe('1-based, in the order the sheet holds the rules'),
  range: z.string(),
  type: z.string(),
  description: z.string(),
})

export function listRules(ws: Worksheet) {
  let index = 0
  return formattings(ws).flatMap((cf) =>
    cf.rules.map((rule) => ({
      index: ++index,
      range: cf.ref,
      type: rule.type ?? 'unknown',
      description: describeRule(rule),
    })),
  )
}

export function conditionalFormatMethods(workbooks: WorkbooksHandle) {
  return {
    listConditionalFormats: method({
      description:
        'Lists the conditional formatting rules of a sheet: {sheet, rules: [{index, range, type, description}]}.',
      input: z.object({ path: AgentPath, sheet: SheetName }),
      output: z.object({ sheet: z.string(), rules: z.array(RuleInfo) }),
      risk: 'read',
      run: async (args, ctx) => {
        const { ws } = await openSheet(workbooks, ctx, args)
        return { sheet: ws.name, rules: listRules(ws) }
      },
    }),
    deleteConditionalFormat: method({
      description: `Deletes conditional formatting rules: the rule at index (from list_conditional_formats), or every rule on exactly range. ${SETTINGS_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        index: z.number().int().min(1).optional(),
        range: z.string().min(1).optional().describe('Delete every rule whose range is this, e.g. C2:C20'),
      }),
      output: SettingsReceipt,
      risk: 'write',
      run: async (args, ctx) => {
        const { open, ws } = await openSheet(workbooks, ctx, args)
        if ((args.index === undefined) === (args.range === undefined))
          throw invalidInput('give either index or range')
        const before = listRules(ws)
        const doomed =
          args.index !== undefined
            ? before.filter((r) => r.index === args.index)
            : before.filter(
                (r) => r.range.toUpperCase() === args.range!.trim().toUpperCase().replace(/\$/g, ''),
              )
        if (doomed.length === 0)
          throw invalidInput(
            args.index !== undefined
              ? `sheet ${ws.name} has ${before.length} rule(s): no rule ${args.index}`
              : `no rule on ${args.range}; rules are on ${[...new Set(before.map((r) => r.range))].join(', ') || 'no range'}`,
          )
        const gone = new Set(doomed.map((r) => r.index))
        let index = 0
        const kept = formattings(ws)
          .map((cf) => ({ ...cf, rules: cf.rules.filter(() => !gone.has(++index)) }))
          .filter((cf) => cf.rules.length > 0)
        ;(ws as unknown as { conditionalFormattings: StoredFormatting[] }).conditionalFormattings = kept
        open.changed(ws)
        const after = listRules(ws)
        if (after.length !== before.length - doomed.length) throw new Error('the rules were not deleted')
        return {
          sheet: ws.name,
          range: [...new Set(doomed.map((r) => r.range))].join(', '),
          applied: [
            ...doomed.map((r) => `deleted rule ${r.index} on ${r.range}: ${r.description}`),
            `${after.length} rule(s) left`,
          ],
        }
      },
    }),
  }
}
