import { decodeXml, escapeXml } from '../ooxml/packageParts'

/** A change to apply to sheet-qualified references (a rename, rows inserted...) since the last save. */
export type RefRewrite = (formula: string) => string

const CHART_TYPE = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml'

/** Applies rewrites to the `<c:f>` references of a chart part (series, categories, titles). */
export function rewriteChartXml(xml: string, rewrites: readonly RefRewrite[]): string {
  if (rewrites.length === 0) return xml
  return xml.replace(
    /(<(\w+:)?f>)([^<]*)(<\/(\w+:)?f>)/g,
    (_, open: string, _p: string, body: string, close: string) => {
      const formula = rewrites.reduce((f, rewrite) => rewrite(f), decodeXml(body))
      return `${open}${escapeXml(formula)}${close}`
    },
  )
}

export function isChartPart(contentType: string | undefined): boolean {
  return contentType === CHART_TYPE
}
