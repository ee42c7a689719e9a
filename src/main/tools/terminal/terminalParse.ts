import { split } from 'shlex'
import { parseLooseJson } from '../../../shared/json'
import { cliUsage, exampleCall, renderCliCall } from '../call/cliUsage'
import { methodInfo, type ParamInfo } from '../call/methodInfo'
import { findToolset, resolveInToolset, resolveMethod } from '../call/resolveMethod'
import { cliMethodName, cliOptionName, clip, nameKey } from '../naming'
import { closestNames } from '../suggest'
import type { RegisteredMethod, ToolRegistry, Toolset } from '../types'

export type TerminalCommand =
  | { kind: 'help'; toolset?: Toolset; method?: string }
  | { kind: 'call'; target: RegisteredMethod; args: Record<string, unknown> }
  | { kind: 'error'; stage: 'usage' | 'resolve'; error: string }

const HELP_WORDS = new Set(['-h', '--help', 'help', '?', '-?'])
const HELP_FLAGS = new Set(['-h', '--help', '-?'])
const BOOLEAN_WORDS = /^(true|false|yes|no|on|off|1|0)$/i

/** Splits a command line like a POSIX shell (quotes, backslash escapes). */
export function tokenizeCommand(line: string): { ok: true; tokens: string[] } | { ok: false; error: string } {
  try {
    return { ok: true, tokens: split(line) }
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'cannot split the command'
    return {
      ok: false,
      error: `${reason}. Close every quote; write values with spaces in quotes, e.g. text word_count "two words".`,
    }
  }
}

/** Drops what models sometimes type before the command: `$`, `bureau tool`, `cli`. */
function stripPrefix(tokens: string[]): string[] {
  let rest = tokens
  if (rest[0] === '$') rest = rest.slice(1)
  if (rest[0] === 'bureau' && rest[1] === 'tool') rest = rest.slice(2)
  if (rest[0] === 'cli') rest = rest.slice(1)
  return rest
}

function usageError(error: string): TerminalCommand {
  return { kind: 'error', stage: 'usage', error }
}

function helpFor(registry: ToolRegistry, words: string[]): TerminalCommand {
  const [first, second] = words
  if (!first) return { kind: 'help' }
  const toolset = findToolset(registry, first)
  if (!toolset) {
    const resolved = resolveMethod(registry, first)
    if (resolved.ok) return { kind: 'help', toolset: resolved.target.toolset, method: resolved.target.key }
    return unknownToolset(registry, first)
  }
  if (!second || HELP_WORDS.has(second)) return { kind: 'help', toolset }
  const resolved = resolveInToolset(registry, toolset, second)
  if (!resolved.ok)
    return { kind: 'error', stage: 'resolve', error: `${resolved.error} Run \`${toolset.name} --help\`.` }
  return { kind: 'help', toolset, method: resolved.target.key }
}

function unknownToolset(registry: ToolRegistry, word: string): TerminalCommand {
  const names = registry.list().map((t) => t.name)
  const methodNames = registry.methods().map((m) => `${m.toolset.name} ${cliMethodName(m.key)}`)
  const close = closestNames(word, [...names, ...methodNames])
  const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `\`${c}\``).join(' or ')}?` : ''
  return {
    kind: 'error',
    stage: 'resolve',
    error: `Unknown toolset "${clip(word)}".${hint} Toolsets: ${names.join(', ') || 'none'}. Run \`help\` for usage.`,
  }
}

function exampleLine(target: RegisteredMethod): string {
  return renderCliCall(target.toolset, target.key, exampleCall(target.toolset, target.key).args)
}

function withUsage(target: RegisteredMethod, message: string): TerminalCommand {
  return usageError(
    `${message}\nUsage: ${cliUsage(target.toolset, target.key)}\nExample: ${exampleLine(target)}`,
  )
}

/** A lone `{...}` argument whose keys are all fields: the model sent the arguments as JSON. */
function jsonArguments(token: string, params: ParamInfo[]): Record<string, unknown> | undefined {
  if (!token.trim().startsWith('{')) return undefined
  try {
    const value = parseLooseJson(token)
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
    const known = new Set(params.map((p) => nameKey(p.name)))
    const keys = Object.keys(value)
    return keys.length > 0 && keys.every((key) => known.has(nameKey(key)))
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function parseArgs(target: RegisteredMethod, words: string[]): TerminalCommand {
  const info = methodInfo(target.method)
  const byKey = new Map(info.params.map((p) => [nameKey(p.name), p]))
  const args: Record<string, unknown> = {}
  const positionals: string[] = []
  const title = `${target.toolset.name} ${cliMethodName(target.key)}`

  const set = (param: ParamInfo, value: unknown): TerminalCommand | undefined => {
    if (!(param.name in args)) {
      args[param.name] = value
      return undefined
    }
    if (!param.isArray) return withUsage(target, `${cliOptionName(param.name)} was given twice.`)
    const existing = args[param.name]
    args[param.name] = Array.isArray(existing) ? [...existing, value] : [existing, value]
    return undefined
  }

  let optionsEnded = false
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string
    if (!optionsEnded && word === '--') {
      optionsEnded = true
      continue
    }
    if (optionsEnded || !word.startsWith('--') || word.length === 2) {
      positionals.push(word)
      continue
    }
    const eq = word.indexOf('=')
    const name = eq >= 0 ? word.slice(2, eq) : word.slice(2)
    const inline = eq >= 0 ? word.slice(eq + 1) : undefined
    let param = byKey.get(nameKey(name))
    let negated = false
    if (!param && /^no[-_]/i.test(name)) {
      const positive = byKey.get(nameKey(name.slice(3)))
      if (positive?.isBoolean) {
        param = positive
        negated = true
      }
    }
    if (!param) {
      const options = info.params.map((p) => cliOptionName(p.name))
      const close = closestNames(name, options, 2)
      const hint = close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : ''
      return withUsage(target, `Unknown option --${clip(name)} for ${title}.${hint}`)
    }
    let problem: TerminalCommand | undefined
    if (param.isBoolean) {
      if (negated) problem = set(param, false)
      else if (inline !== undefined) problem = set(param, inline)
      else if (BOOLEAN_WORDS.test(words[i + 1] ?? '')) problem = set(param, words[++i])
      else problem = set(param, true)
    } else if (inline !== undefined) {
      problem = set(param, inline)
    } else if (i + 1 < words.length) {
      problem = set(param, words[++i])
    } else {
      return withUsage(target, `Missing value for ${cliOptionName(param.name)}.`)
    }
    if (problem) return problem
  }

  const asJson = positionals.length === 1 ? jsonArguments(positionals[0] as string, info.params) : undefined
  if (asJson) return { kind: 'call', target, args: { ...asJson, ...args } }
  const free = info.params.filter((p) => !(p.name in args))
  if (positionals.length > free.length) {
    const taken =
      free.length === 0
        ? 'no more positional values'
        : `${free.length} positional value(s) (${free.map((p) => p.name).join(', ')})`
    return withUsage(
      target,
      `Too many arguments: ${title} takes ${taken} but got ${positionals.length}. Quote values that contain spaces.`,
    )
  }
  positionals.forEach((value, index) => {
    args[(free[index] as ParamInfo).name] = value
  })
  return { kind: 'call', target, args }
}

/** Parses terminal words (already split) into a help request, a method call or a usage error. */
export function parseTerminalArgv(registry: ToolRegistry, argv: readonly string[]): TerminalCommand {
  const words = stripPrefix([...argv])
  const [first, second] = words
  if (first === undefined || (words.length === 1 && HELP_WORDS.has(first))) return { kind: 'help' }
  if (first === 'help' || first === '?' || HELP_FLAGS.has(first)) return helpFor(registry, words.slice(1))

  let target: RegisteredMethod
  let rest: string[]
  const toolset = findToolset(registry, first)
  if (toolset) {
    if (second === undefined || HELP_WORDS.has(second)) return { kind: 'help', toolset }
    const resolved = resolveInToolset(registry, toolset, second)
    if (!resolved.ok)
      return { kind: 'error', stage: 'resolve', error: `${resolved.error} Run \`${toolset.name} --help\`.` }
    target = resolved.target
    rest = words.slice(2)
  } else {
    const resolved = resolveMethod(registry, first)
    if (!resolved.ok) return unknownToolset(registry, first)
    target = resolved.target
    rest = words.slice(1)
  }
  const dashDash = rest.indexOf('--')
  const optionPart = dashDash >= 0 ? rest.slice(0, dashDash) : rest
  if (
    optionPart.some((word) => HELP_FLAGS.has(word)) ||
    (rest.length === 1 && (rest[0] === 'help' || rest[0] === '?'))
  ) {
    return { kind: 'help', toolset: target.toolset, method: target.key }
  }
  return parseArgs(target, rest)
}
