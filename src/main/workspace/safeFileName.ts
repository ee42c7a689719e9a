import { parseAgentPath } from './agentPath'

// Controls, line/paragraph separators and invisible format characters (bidi overrides, BOM); ZWNJ/ZWJ stay.
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/gu
// Characters a workspace path refuses in a name (":", "\\", a "%xx" escape), and Unicode look-alikes of
// "/", "\\", ":" and "%".
const UNSAFE =
  /[:\\\u2044\u2215\u29F8\u29F9\u2216\u244A\u2571\u2572\uFE68\uFF0F\uFF3C\uFF1A\uFE55\uFE13\uFF05\uFE6A]|%(?=[0-9a-f]{2})/giu
const DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(?:\s*\..*)?$/i

export interface SafeName {
  name: string
  /** Why the name differs from the one the user's system gave, when it does for more than its folder. */
  why?: string
}

function accepted(name: string): boolean {
  try {
    return parseAgentPath(`/folder/${name}`).segments.length === 2
  } catch {
    return false
  }
}

/** The steps that turn what the user's system called the file into a name the workspace accepts. */
function cleanName(base: string): { name: string; reasons: string[] } {
  const reasons: string[] = []
  const step = (next: string, reason: string) => {
    if (next !== name) reasons.push(reason)
    name = next
  }
  let name = base.normalize('NFC')
  step(name.replace(INVISIBLE, ''), 'it contained control or invisible characters')
  step(name.replace(UNSAFE, '_'), 'it contained ":", "\\", a %xx escape or a look-alike of one of them')
  step(name.replace(/[. ]+$/, ''), 'it ended with a dot or a space')
  step(name.trim(), 'it had spaces around it')
  if (DEVICE.test(name) || DEVICE.test(name.normalize('NFKC')))
    step(`_${name}`, 'it is a reserved device name')
  if (Buffer.byteLength(name) > 200) step(shorten(name, 200), 'it was too long')
  return { name, reasons }
}

/** A name that a workspace folder accepts for a file, from what the user's system called the file, and why it changed. */
export function safeFileName(original: string): SafeName {
  const base = original.split(/[\\/]/).pop() ?? ''
  const { name, reasons } = cleanName(base)
  if (name !== '' && name !== '.' && name !== '..' && accepted(name))
    return reasons.length > 0 ? { name, why: reasons.join('; ') } : { name }
  const fallback = 'attachment'
  return base === '' ? { name: fallback } : { name: fallback, why: 'no safe name could be made from it' }
}

function shorten(name: string, maxBytes: number): string {
  const dot = name.lastIndexOf('.')
  const ext = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : ''
  let stem = name.slice(0, name.length - ext.length)
  while (Buffer.byteLength(stem + ext) > maxBytes) stem = stem.slice(0, -1)
  return stem + ext
}
