import { workspaceError } from './errors'

// A glob matcher that runs in time linear in the name (times the pattern's length): the pattern is
// compiled to a token list and matched by tracking every position at once (an NFA), never by
// backtracking, so `*a*a*a*a*a*b` against a long name costs microseconds, not minutes.
// Supported: `*` and `?` (not across `/`), `**` (any folders, `a/**/b` matches `a/b`), `[abc]`,
// `[a-z]`, `[!x]`/`[^x]`, `{a,b}` (nested), and `\` to escape. Anything else is literal.

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'globstar' }
  | { kind: 'class'; negated: boolean; test: (char: string) => boolean }

const MAX_PATTERN = 1_000
const MAX_ALTERNATIVES = 256

export interface GlobOptions {
  nocase?: boolean
}

export function compileGlob(pattern: string, options: GlobOptions = {}): (name: string) => boolean {
  if (pattern.length > MAX_PATTERN)
    throw workspaceError('VALIDATION_FAILED', `The pattern is longer than ${MAX_PATTERN} characters.`)
  const fold = options.nocase ? (text: string) => text.toLowerCase() : (text: string) => text
  const programs = expandBraces(fold(pattern)).map(tokenize)
  return (name) => {
    const chars = Array.from(fold(name))
    return programs.some((tokens) => run(tokens, chars))
  }
}

/** `{a,b}c` → `ac`, `bc`; nested braces expand from the inside out; a lone `{` stays literal. */
function expandBraces(pattern: string): string[] {
  let results = [pattern]
  for (;;) {
    let changed = false
    const next: string[] = []
    for (const item of results) {
      const group = innermostGroup(item)
      if (!group) {
        next.push(item)
        continue
      }
      changed = true
      const head = item.slice(0, group.start)
      const tail = item.slice(group.end + 1)
      for (const option of group.options) next.push(head + option + tail)
    }
    if (next.length > MAX_ALTERNATIVES)
      throw workspaceError(
        'VALIDATION_FAILED',
        `The pattern expands to more than ${MAX_ALTERNATIVES} alternatives.`,
      )
    results = next
    if (!changed) return results
  }
}

/** The first `{…}` without another `{` inside that holds a comma at its own level. */
function innermostGroup(text: string): { start: number; end: number; options: string[] } | undefined {
  let open = -1
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '\\') i++
    else if (char === '{') open = i
    else if (char === '}' && open >= 0) {
      const body = text.slice(open + 1, i)
      const options = splitTopLevel(body)
      if (options.length > 1) return { start: open, end: i, options }
      open = -1
    }
  }
  return undefined
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = []
  let current = ''
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string
    if (char === '\\' && i + 1 < body.length) {
      current += char + body[i + 1]
      i++
    } else if (char === ',') {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  return parts
}

function tokenize(pattern: string): Token[] {
  const chars = Array.from(pattern)
  const tokens: Token[] = []
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string
    if (char === '\\' && i + 1 < chars.length) tokens.push({ kind: 'char', char: chars[++i] as string })
    else if (char === '?') tokens.push({ kind: 'any' })
    else if (char === '*') {
      let run = 1
      while (chars[i + 1] === '*') {
        run++
        i++
      }
      const last = tokens.at(-1)
      // Consecutive stars collapse: `**` is a globstar, a second `*` after `*` adds nothing.
      if (run > 1) tokens.push({ kind: 'globstar' })
      else if (last?.kind !== 'star' && last?.kind !== 'globstar') tokens.push({ kind: 'star' })
    } else if (char === '[') {
      const parsed = parseClass(chars, i)
      if (parsed) {
        tokens.push(parsed.token)
        i = parsed.end
      } else tokens.push({ kind: 'char', char })
    } else tokens.push({ kind: 'char', char })
  }
  return tokens
}

function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let i = start + 1
  const negated = chars[i] === '!' || chars[i] === '^'
  if (negated) i++
  const ranges: Array<[string, string]> = []
  let first = true
  for (; i < chars.length; i++) {
    let char = chars[i] as string
    if (char === ']' && !first) {
      const test = (c: string) => ranges.some(([low, high]) => c >= low && c <= high)
      return { token: { kind: 'class', negated, test }, end: i }
    }
    first = false
    if (char === '\\' && i + 1 < chars.length) char = chars[++i] as string
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      ranges.push([char, chars[i + 2] as string])
      i += 2
    } else ranges.push([char, char])
  }
  return undefined
}

function consumes(token: Token, char: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.char === char
    case 'any':
    case 'star':
      return char !== '/'
    case 'globstar':
      return true
    case 'class':
      return char !== '/' && token.test(char) !== token.negated
  }
}

/** Marks `state` and every state reachable from it without reading a character. */
function close(tokens: Token[], set: Uint8Array, state: number): void {
  const stack = [state]
  while (stack.length > 0) {
    const at = stack.pop() as number
    if (set[at]) continue
    set[at] = 1
    const token = tokens[at]
    if (!token) continue
    if (token.kind === 'star' || token.kind === 'globstar') stack.push(at + 1)
    // `**/` may match no folder at all, and a trailing `/**` the folder itself.
    if (token.kind === 'globstar' && isSlash(tokens[at + 1])) stack.push(at + 2)
    if (isSlash(token) && tokens[at + 1]?.kind === 'globstar' && at + 2 === tokens.length) stack.push(at + 2)
  }
}

function isSlash(token: Token | undefined): boolean {
  return token?.kind === 'char' && token.char === '/'
}

function run(tokens: Token[], chars: string[]): boolean {
  let current = new Uint8Array(tokens.length + 1)
  close(tokens, current, 0)
  for (const char of chars) {
    const next = new Uint8Array(tokens.length + 1)
    let alive = false
    for (let state = 0; state < tokens.length; state++) {
      const token = tokens[state] as Token
      if (!current[state] || !consumes(token, char)) continue
      alive = true
      // A star stays where it is after reading; everything else moves on.
      close(tokens, next, token.kind === 'star' || token.kind === 'globstar' ? state : state + 1)
    }
    if (!alive) return false
    current = next
  }
  return current[tokens.length] === 1
}
