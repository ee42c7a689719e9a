import { quote } from 'shlex'
import { exampleArgs } from '../defineToolset'
import { cliMethodName, cliOptionName } from '../naming'
import type { AnyToolMethod, Toolset } from '../types'
import type { MethodInfo, ParamInfo } from './methodInfo'
import { methodInfo } from './methodInfo'

/** The leading required fields: these are written positionally in usage lines and examples. */
export function positionalParams(info: MethodInfo): ParamInfo[] {
  const leading: ParamInfo[] = []
  for (const param of info.params) {
    if (!param.required) break
    leading.push(param)
  }
  return leading
}

function optionPlaceholder(param: ParamInfo): string {
  if (param.isBoolean) return ''
  const type =
    param.type.length <= 24
      ? param.type.replace(/"/g, '').replace(/ \| /g, '|')
      : param.isArray
        ? 'list'
        : 'json'
  return ` <${type}>`
}

/** `text replace <text> <find> <replacement> [--regex] [--ignore-case]` */
export function cliUsage(toolset: Toolset, key: string): string {
  const info = methodInfo(toolset.methods[key] as AnyToolMethod)
  const positional = positionalParams(info)
  const parts = [toolset.name, cliMethodName(key), ...positional.map((p) => `<${p.name}>`)]
  for (const param of info.params.slice(positional.length)) {
    const option = `${cliOptionName(param.name)}${optionPlaceholder(param)}`
    parts.push(param.required ? option : `[${option}]`)
  }
  return parts.join(' ')
}

function cliValue(value: unknown): string {
  if (typeof value === 'string') return quote(value)
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' && !String(v).includes(','))) {
    return quote(value.join(','))
  }
  return quote(JSON.stringify(value))
}

/** Writes a call as a terminal command line: positional leading fields, `--options` for the rest. */
export function renderCliCall(toolset: Toolset, key: string, args: Record<string, unknown>): string {
  const info = methodInfo(toolset.methods[key] as AnyToolMethod)
  const parts = [toolset.name, cliMethodName(key)]
  let positional = true
  for (const param of info.params) {
    const value = args[param.name]
    if (value === undefined) {
      positional = false
      continue
    }
    if (positional && param.required) {
      parts.push(cliValue(value))
      continue
    }
    positional = false
    if (param.isBoolean)
      parts.push(value ? cliOptionName(param.name) : `--no-${cliOptionName(param.name).slice(2)}`)
    else parts.push(cliOptionName(param.name), cliValue(value))
  }
  return parts.join(' ')
}

function placeholderValue(param: ParamInfo): unknown {
  const schema = param.schema
  if (schema.enum?.[0] !== undefined) return schema.enum[0]
  if (schema.examples?.[0] !== undefined) return schema.examples[0]
  if (param.isBoolean) return true
  if (param.isArray) return ['a', 'b']
  if (param.type === 'number' || param.type === 'integer') return 1
  if (/path|file/i.test(param.name)) return '/notes/example.txt'
  return param.type.startsWith('{') ? {} : 'example'
}

/** The method's first declared example, or one made from placeholders for its required fields. */
export function exampleCall(
  toolset: Toolset,
  key: string,
): { args: Record<string, unknown>; declared: boolean } {
  const method = toolset.methods[key] as AnyToolMethod
  const declared = method.examples?.[0]
  if (declared !== undefined)
    return { args: exampleArgs(declared) as Record<string, unknown>, declared: true }
  const info = methodInfo(method)
  const args = Object.fromEntries(
    info.params.filter((p) => p.required).map((p) => [p.name, placeholderValue(p)]),
  )
  return { args, declared: false }
}
