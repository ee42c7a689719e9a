/**
 * Prepares model text for remark-math, outside code: `\( … \)` and `\[ … \]` (how many models write
 * LaTeX) become `$ … $` and `$$ … $$`, and a dollar that starts an amount (`$5 and $10`) is escaped so
 * prices are not read as math. `$x^2$` and `$2^{10}$` stay math.
 */
export function prepareMath(text: string): string {
  // Split off fenced blocks and inline code: odd parts are code and stay as they are.
  const parts = text.split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
  return parts.map((part, i) => (i % 2 === 1 ? part : prose(part))).join('')
}

function prose(text: string): string {
  const converted = text
    .replace(/\\\[([\s\S]+?)\\\]/g, (_m, body: string) => `$$${body}$$`)
    .replace(/\\\(([\s\S]+?)\\\)/g, (_m, body: string) => `$${body}$`)
  return converted.split('\n').map(escapeAmounts).join('\n')
}

/** On one line: a `$` before a digit whose next `$` is missing or also before a digit is money. */
function escapeAmounts(line: string): string {
  const dollars: number[] = []
  for (let i = 0; i < line.length; i++) if (line[i] === '$' && line[i - 1] !== '\\') dollars.push(i)
  const money = new Set<number>()
  for (let k = 0; k < dollars.length; k++) {
    const at = dollars[k] as number
    if (line[at + 1] === '$' || line[at - 1] === '$') continue
    if (!/\d/.test(line[at + 1] ?? '')) continue
    const next = dollars[k + 1]
    if (next === undefined || /\d/.test(line[next + 1] ?? '')) {
      money.add(at)
      if (next !== undefined) {
        money.add(next)
        k++
      }
    }
  }
  if (money.size === 0) return line
  let out = ''
  for (let i = 0; i < line.length; i++) out += money.has(i) ? '\\$' : line[i]
  return out
}
